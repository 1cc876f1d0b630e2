import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { EsignDb } from './index';

/** What drizzle's `.prepare(...)` answers: a query built once, run with placeholder values. */
interface PreparedQuery<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * A hot query built once per database handle instead of on every call: drizzle spends
 * more CPU building a query's SQL than node-postgres spends running it (0.4–0.7 ms per
 * query, measured on the signing path). `build` returns the query with
 * `sql.placeholder(...)` for its values, prepared as `UNNAMED`; the answer runs
 * it with the values. A unit of work's transaction handle lasts as long as its pooled
 * connection (db/unit-of-work.ts) and keeps its queries too; on a drizzle transaction's
 * handle, which serves one transaction, nothing is kept: the query is built per call.
 */
export function preparedQuery<R>(db: EsignDb, build: () => PreparedQuery<R>): (values: Record<string, unknown>) => Promise<R> {
  if (is(db, PgTransaction)) return (values) => build().execute(values);
  let query: PreparedQuery<R> | undefined;
  return (values) => (query ??= build()).execute(values);
}

/**
 * The statement name given to `.prepare()`: empty, so Postgres parses it per run (an
 * unnamed statement). A named one would outlive a connection in embedded PGlite, whose
 * connections share one session, and collide when a new connection prepares it again.
 */
export const UNNAMED = '';
