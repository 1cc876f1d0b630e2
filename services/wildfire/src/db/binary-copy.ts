/**
 * Columnar data (typed arrays) in Postgres's binary COPY format, for `bulkLoadColumns`
 * (bulk-load.ts): numbers go over the wire as their 8 bytes, dates as day numbers.
 */

/** Days since 2000-01-01, Postgres's date epoch (the binary COPY representation of a date). */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;

/** The day number (days since 2000-01-01) of a YYYY-MM-DD date. */
export function pgDayOf(iso: string): number {
  return Math.round((Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) - PG_EPOCH_MS) / DAY_MS);
}

/** The YYYY-MM-DD date of a day number. */
export function isoOfPgDay(day: number): string {
  return new Date(PG_EPOCH_MS + day * DAY_MS).toISOString().slice(0, 10);
}

/** One column's values, row i at index i. Text columns are indexes into a small dictionary (codes, labels). */
export type ColumnData =
  | { type: 'float8'; values: Float64Array }
  | { type: 'int4'; values: Int32Array }
  | { type: 'date'; days: Int32Array }
  | { type: 'text'; index: ArrayLike<number>; dictionary: readonly string[] };

export interface ColumnSource {
  name: string;
  data: ColumnData;
}

const BINARY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const BINARY_CHUNK_BYTES = 1 << 20;

/**
 * The rows in COPY's binary format: a signature, flags and header extension (both 0),
 * then per row the field count and each field as its length and bytes (float8 as an
 * IEEE double and date as int4 days, big-endian), then -1. NaN must not occur (`|| 0`
 * would turn it into 0); the callers load finite, validated values.
 */
export function binaryCopy(columns: readonly ColumnSource[], length: number): Generator<Buffer> {
  return binaryCopyAsFilled(() => columns, [length]);
}

/**
 * As `binaryCopy`, for columns still being filled: `filled` yields how many rows are
 * ready (ascending) each time more are, and ends when all are; each ready batch is
 * encoded (and yielded, so COPY sends it) before the next is asked for. `columns()` is
 * read again for each batch, so the arrays may be replaced as they grow (the text
 * columns' dictionaries must stay the same).
 *
 * Rows are encoded about 1 MB at a time, column by column: the offset of every row of
 * the chunk first, then each column's values into all its rows, so each inner loop
 * sees one type of array (several times faster than row by row).
 */
export function* binaryCopyAsFilled(columns: () => readonly ColumnSource[], filled: Iterable<number>): Generator<Buffer> {
  const header = Buffer.alloc(19);
  BINARY_SIGNATURE.copy(header, 0);
  let pending: Buffer | undefined = header;
  let done = 0;
  let dictionaries: Buffer[][] | undefined;
  let positions = new Int32Array(0);
  for (const ready of filled) {
    const current = columns();
    dictionaries ??= current.map((c) => (c.data.type === 'text' ? c.data.dictionary.map((v) => Buffer.from(v, 'utf8')) : []));
    const rowBytes = 2 + current.reduce((sum, c, k) => sum + 4 + (c.data.type === 'text' ? Math.max(0, ...dictionaries![k]!.map((b) => b.length)) : c.data.type === 'float8' ? 8 : 4), 0);
    const chunkRows = Math.max(1, Math.floor(BINARY_CHUNK_BYTES / rowBytes));
    if (positions.length < chunkRows) positions = new Int32Array(chunkRows);
    while (done < ready) {
      const to = Math.min(ready, done + chunkRows);
      const lead = pending?.length ?? 0;
      const buf = Buffer.allocUnsafe(lead + (to - done) * rowBytes);
      if (pending) pending.copy(buf, 0);
      pending = undefined;
      const end = encodeRows(current, dictionaries, done, to, buf, lead, positions);
      yield buf.subarray(0, end);
      done = to;
    }
  }
  const trailer = Buffer.alloc((pending?.length ?? 0) + 2);
  if (pending) pending.copy(trailer, 0);
  trailer.writeInt16BE(-1, trailer.length - 2);
  yield trailer;
}

/** Encodes rows `from`..`to` - 1 into `buf` from `at`; returns where they end. `positions` has room for the rows. */
function encodeRows(columns: readonly ColumnSource[], dictionaries: readonly Buffer[][], from: number, to: number, buf: Buffer, at: number, positions: Int32Array): number {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const count = to - from;
  let fixed = 2;
  for (const c of columns) fixed += 4 + (c.data.type === 'float8' ? 8 : c.data.type === 'text' ? 0 : 4);
  // Where each row starts: the fixed part plus its text values' lengths.
  for (let i = 0; i < count; i++) {
    positions[i] = at;
    at += fixed;
  }
  for (let k = 0; k < columns.length; k++) {
    const data = columns[k]!.data;
    if (data.type !== 'text') continue;
    const lengths = dictionaries[k]!.map((b) => b.length);
    let shift = 0;
    for (let i = 0; i < count; i++) {
      positions[i]! += shift;
      shift += lengths[data.index[from + i]!]!;
    }
    at += shift;
  }
  const end = at;
  // positions[i] now is where row i starts: its field count, then the fields.
  for (let i = 0; i < count; i++) {
    view.setInt16(positions[i]!, columns.length);
    positions[i]! += 2;
  }
  for (let k = 0; k < columns.length; k++) {
    const data = columns[k]!.data;
    if (data.type === 'float8') writeFloat8(view, positions, data.values, from, count);
    else if (data.type === 'date') writeInt4(view, positions, data.days, from, count);
    else if (data.type === 'int4') writeInt4(view, positions, data.values, from, count);
    else writeText(buf, view, positions, data.index, dictionaries[k]!, from, count);
  }
  return end;
}

function writeFloat8(view: DataView, positions: Int32Array, values: Float64Array, from: number, count: number): void {
  for (let i = 0; i < count; i++) {
    const at = positions[i]!;
    view.setInt32(at, 8);
    // -0 is stored as 0, as its text form "0" (the unnest path) is.
    view.setFloat64(at + 4, values[from + i]! || 0);
    positions[i] = at + 12;
  }
}

function writeInt4(view: DataView, positions: Int32Array, values: Int32Array, from: number, count: number): void {
  for (let i = 0; i < count; i++) {
    const at = positions[i]!;
    view.setInt32(at, 4);
    view.setInt32(at + 4, values[from + i]!);
    positions[i] = at + 8;
  }
}

function writeText(buf: Buffer, view: DataView, positions: Int32Array, index: ArrayLike<number>, dictionary: readonly Buffer[], from: number, count: number): void {
  for (let i = 0; i < count; i++) {
    const at = positions[i]!;
    const bytes = dictionary[index[from + i]!]!;
    const length = bytes.length;
    view.setInt32(at, length);
    // Codes and labels are a few bytes: a loop beats a native copy call.
    if (length <= 16) for (let j = 0; j < length; j++) buf[at + 4 + j] = bytes[j]!;
    else bytes.copy(buf, at + 4);
    positions[i] = at + 4 + length;
  }
}
