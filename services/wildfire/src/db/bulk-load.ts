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
 * formatting in Node nor parsing in Postgres. `bulkLoadColumnsAsFilled` does the same
 * while the columns are still being computed, batch by batch.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { binaryCopy, binaryCopyAsFilled, isoOfPgDay, type ColumnData, type ColumnSource } from './binary-copy';

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

/** Loads the first `length` rows of `columns` into `table`; returns how many were loaded. */
export async function bulkLoadColumns(client: pg.ClientBase, mode: BulkMode, table: string, columns: readonly ColumnSource[], length: number): Promise<number> {
  if (length === 0) return 0;
  const names = columns.map((c) => quoteIdent(c.name)).join(', ');
  if (mode === 'copy') {
    await copyBinary(client, table, columns, binaryCopy(columns, length));
    return length;
  }
  const sql = `INSERT INTO ${quoteIdent(table)} (${names}) SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${c.data.type}[]`).join(', ')})`;
  for (let from = 0; from < length; from += UNNEST_BATCH) {
    const to = Math.min(length, from + UNNEST_BATCH);
    await client.query(sql, columns.map((c) => unnestValues(c.data, from, to)));
  }
  return length;
}

/**
 * As `bulkLoadColumns`, for columns still being filled (see `binaryCopyAsFilled`):
 * `filled` yields how many rows are ready each time more are. With COPY each batch
 * goes to the database as soon as it is ready, so the database writes one batch while
 * the caller computes the next; the unnest path loads once all are ready. Returns the
 * rows loaded. A throw from `filled` aborts the COPY (the transaction rolls back).
 */
export async function bulkLoadColumnsAsFilled(client: pg.ClientBase, mode: BulkMode, table: string, columns: () => readonly ColumnSource[], filled: Iterable<number>): Promise<number> {
  if (mode === 'unnest') {
    let length = 0;
    for (const ready of filled) length = ready;
    return bulkLoadColumns(client, mode, table, columns(), length);
  }
  let length = 0;
  const counted = function* () {
    for (const ready of filled) {
      length = ready;
      yield ready;
    }
  };
  await copyBinary(client, table, columns(), binaryCopyAsFilled(columns, counted()));
  return length;
}

/** Sends binary COPY data (binaryCopy, binaryCopyAsFilled) into `table`'s `columns`. */
async function copyBinary(client: pg.ClientBase, table: string, columns: readonly ColumnSource[], data: Iterable<Buffer>): Promise<void> {
  const names = columns.map((c) => quoteIdent(c.name)).join(', ');
  await pipeline(Readable.from(data), client.query(copyFrom(`COPY ${quoteIdent(table)} (${names}) FROM STDIN WITH (FORMAT binary)`)));
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
