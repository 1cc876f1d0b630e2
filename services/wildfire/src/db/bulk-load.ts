/**
 * Bulk loading of rows into one table, two ways with the same result:
 *  - `copy`: `COPY ... FROM STDIN (FORMAT csv)` through pg-copy-streams, streamed with
 *    backpressure. The Postgres path: one statement, no per-row parsing or planning.
 *  - `unnest`: multi-row `INSERT ... SELECT FROM unnest($1::type[], ...)` in batches.
 *    The embedded path: PGlite served through @electric-sql/pglite-socket does not
 *    speak the COPY sub-protocol (the connection dies with "protocol synchronization
 *    was lost"), so embedded mode loads this way.
 * A source that throws (a row failing validation) aborts the load: COPY sends
 * CopyFail, and the caller's transaction rolls back whatever the batches wrote.
 *
 * `bulkLoadColumns` loads columnar data (typed arrays) the same two ways, COPY in its
 * binary format on Postgres: numbers go over the wire as their 8 bytes, with no text
 * formatting in Node nor parsing in Postgres.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type BulkMode = 'copy' | 'unnest';

/** The loader a database kind supports: COPY on Postgres, unnest batches on embedded PGlite. */
export function bulkModeFor(kind: 'postgres' | 'pglite'): BulkMode {
  return kind === 'postgres' ? 'copy' : 'unnest';
}

export interface BulkColumn {
  name: string;
  type: 'text' | 'date' | 'float8' | 'int4';
}

export type BulkValue = string | number | null;

/** Columns from `{ name: type }`, in the object's order. */
export function bulkColumns(types: Record<string, BulkColumn['type']>): BulkColumn[] {
  return Object.entries(types).map(([name, type]) => ({ name, type }));
}

const UNNEST_BATCH = 5_000;
const COPY_CHUNK_ROWS = 1_000;

/** Loads `rows` (values in `columns` order) into `table`; returns how many were loaded. */
export async function bulkLoad(
  client: pg.ClientBase,
  mode: BulkMode,
  table: string,
  columns: readonly BulkColumn[],
  rows: Iterable<readonly BulkValue[]> | AsyncIterable<readonly BulkValue[]>,
): Promise<number> {
  return mode === 'copy' ? copyRows(client, table, columns, rows) : unnestRows(client, table, columns, rows);
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function csvValue(value: BulkValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  // A quoted empty string stays an empty string; unquoted it would be NULL.
  return value === '' || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

async function copyRows(client: pg.ClientBase, table: string, columns: readonly BulkColumn[], rows: Iterable<readonly BulkValue[]> | AsyncIterable<readonly BulkValue[]>) {
  let count = 0;
  async function* chunks() {
    let lines: string[] = [];
    for await (const row of rows) {
      lines.push(row.map(csvValue).join(','));
      count++;
      if (lines.length === COPY_CHUNK_ROWS) {
        yield `${lines.join('\n')}\n`;
        lines = [];
      }
    }
    if (lines.length > 0) yield `${lines.join('\n')}\n`;
  }
  const sql = `COPY ${quoteIdent(table)} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) FROM STDIN WITH (FORMAT csv)`;
  await pipeline(Readable.from(chunks()), client.query(copyFrom(sql)));
  return count;
}

async function unnestRows(client: pg.ClientBase, table: string, columns: readonly BulkColumn[], rows: Iterable<readonly BulkValue[]> | AsyncIterable<readonly BulkValue[]>) {
  const sql =
    `INSERT INTO ${quoteIdent(table)} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) ` +
    `SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')})`;
  let count = 0;
  let batch: BulkValue[][] = columns.map(() => []);
  const flush = async () => {
    if (batch[0]!.length === 0) return;
    await client.query(sql, batch);
    batch = columns.map(() => []);
  };
  for await (const row of rows) {
    row.forEach((value, i) => batch[i]!.push(value));
    count++;
    if (batch[0]!.length === UNNEST_BATCH) await flush();
  }
  await flush();
  return count;
}

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

/** Loads the first `length` rows of `columns` into `table`; returns how many were loaded. */
export async function bulkLoadColumns(client: pg.ClientBase, mode: BulkMode, table: string, columns: readonly ColumnSource[], length: number): Promise<number> {
  if (length === 0) return 0;
  const names = columns.map((c) => quoteIdent(c.name)).join(', ');
  if (mode === 'copy') {
    await pipeline(Readable.from(binaryCopy(columns, length)), client.query(copyFrom(`COPY ${quoteIdent(table)} (${names}) FROM STDIN WITH (FORMAT binary)`)));
    return length;
  }
  const sql = `INSERT INTO ${quoteIdent(table)} (${names}) SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${c.data.type}[]`).join(', ')})`;
  for (let from = 0; from < length; from += UNNEST_BATCH) {
    const to = Math.min(length, from + UNNEST_BATCH);
    await client.query(sql, columns.map((c) => unnestValues(c.data, from, to)));
  }
  return length;
}

function unnestValues(data: ColumnData, from: number, to: number): (string | number)[] {
  const out: (string | number)[] = [];
  for (let i = from; i < to; i++) {
    if (data.type === 'text') out.push(data.dictionary[data.index[i]!]!);
    else if (data.type === 'date') out.push(isoOfPgDay(data.days[i]!));
    else out.push(data.values[i]!);
  }
  return out;
}

const BINARY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const BINARY_CHUNK_BYTES = 1 << 20;

/**
 * The rows in COPY's binary format: a signature, flags and header extension (both 0),
 * then per row the field count and each field as its length and bytes (float8 as an
 * IEEE double and date as int4 days, big-endian), then -1. NaN must not occur (`|| 0`
 * would turn it into 0); the callers load finite, validated values.
 */
export function* binaryCopy(columns: readonly ColumnSource[], length: number): Generator<Buffer> {
  const dictionaries = columns.map((c) => (c.data.type === 'text' ? c.data.dictionary.map((v) => Buffer.from(v, 'utf8')) : []));
  const rowBytes = 2 + columns.reduce((sum, c, k) => sum + 4 + (c.data.type === 'text' ? Math.max(0, ...dictionaries[k]!.map((b) => b.length)) : c.data.type === 'float8' ? 8 : 4), 0);
  let buf = Buffer.allocUnsafe(Math.max(BINARY_CHUNK_BYTES, rowBytes + 19));
  let view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  BINARY_SIGNATURE.copy(buf, 0);
  view.setInt32(11, 0);
  view.setInt32(15, 0);
  let at = 19;
  for (let row = 0; row < length; row++) {
    if (at + rowBytes > buf.length) {
      yield buf.subarray(0, at);
      buf = Buffer.allocUnsafe(buf.length);
      view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      at = 0;
    }
    view.setInt16(at, columns.length);
    at += 2;
    for (let k = 0; k < columns.length; k++) {
      const data = columns[k]!.data;
      if (data.type === 'float8') {
        view.setInt32(at, 8);
        // -0 is stored as 0, as its text form "0" (the unnest path) is.
        view.setFloat64(at + 4, data.values[row]! || 0);
        at += 12;
      } else if (data.type === 'text') {
        const bytes = dictionaries[k]![data.index[row]!]!;
        view.setInt32(at, bytes.length);
        bytes.copy(buf, at + 4);
        at += 4 + bytes.length;
      } else {
        view.setInt32(at, 4);
        view.setInt32(at + 4, data.type === 'date' ? data.days[row]! : data.values[row]!);
        at += 8;
      }
    }
  }
  if (at + 2 > buf.length) {
    yield buf.subarray(0, at);
    buf = Buffer.allocUnsafe(2);
    view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    at = 0;
  }
  view.setInt16(at, -1);
  yield buf.subarray(0, at + 2);
}
