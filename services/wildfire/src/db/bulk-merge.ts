import type pg from 'pg';
import { bulkLoad, type BulkColumn, type BulkMode, type BulkValue } from './bulk-load';

/** What a merge did; rows it left alone are neither. */
export interface MergeCounts {
  inserted: number;
  updated: number;
}

/** How a staging table is merged into its target table. */
export interface BulkMergeSpec {
  table: string;
  staging: string;
  /** The conflict target: a row of the staging table with this key replaces the stored one. */
  key: readonly string[];
  /** Copied on insert and overwritten on conflict. */
  values: readonly string[];
  /** Copied on insert, never overwritten. */
  insertOnly?: readonly string[];
  /** Set to `now()` on insert and with every overwrite (e.g. `updated_at`). */
  stamp?: string;
  /**
   * true: a stored row whose `values` equal the staged ones is left alone and counted
   * as neither inserted nor updated; false: every conflicting row is overwritten.
   */
  skipUnchanged: boolean;
}

/** Creates a temporary staging table with `columns`, dropped at commit, and bulk-loads `rows` into it. */
export async function stageRows(
  client: pg.ClientBase,
  mode: BulkMode,
  staging: string,
  columns: readonly BulkColumn[],
  rows: Iterable<readonly BulkValue[]> | AsyncIterable<readonly BulkValue[]>,
): Promise<number> {
  await client.query(`CREATE TEMP TABLE ${staging} (${columns.map((c) => `${c.name} ${c.type}`).join(', ')}) ON COMMIT DROP`);
  return bulkLoad(client, mode, staging, columns, rows);
}

/**
 * Upserts the staging table into the target in one statement and counts what happened:
 * `xmax = 0` tells a freshly inserted row from an updated one.
 */
export async function bulkMerge(client: pg.ClientBase, spec: BulkMergeSpec): Promise<MergeCounts> {
  const copied = [...spec.key, ...(spec.insertOnly ?? []), ...spec.values];
  const columns = spec.stamp ? [...copied, spec.stamp] : copied;
  const selected = spec.stamp ? [...copied, 'now()'] : copied;
  const overwritten = spec.stamp ? [...spec.values, spec.stamp] : spec.values;
  const onlyChanged = spec.skipUnchanged
    ? `WHERE (${spec.values.map((c) => `${spec.table}.${c}`).join(', ')}) IS DISTINCT FROM (${spec.values.map((c) => `excluded.${c}`).join(', ')})`
    : '';
  const { rows } = await client.query<MergeCounts>(
    `WITH up AS (
       INSERT INTO ${spec.table} (${columns.join(', ')}) SELECT ${selected.join(', ')} FROM ${spec.staging}
       ON CONFLICT (${spec.key.join(', ')}) DO UPDATE SET ${overwritten.map((c) => `${c} = excluded.${c}`).join(', ')}
       ${onlyChanged}
       RETURNING (xmax = 0) AS inserted)
     SELECT (count(*) FILTER (WHERE inserted))::int AS inserted, (count(*) FILTER (WHERE NOT inserted))::int AS updated FROM up`,
  );
  return rows[0]!;
}
