import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Database } from '@firma-riesgo/service-kit';
import type { schema } from '../db';
import { bulkColumns, bulkModeFor, type BulkMode } from '../db/bulk-load';
import { stageRows, type MergeCounts } from '../db/bulk-merge';
import { withLockedTransaction } from '../db/locked-transaction';
import { storedSeriesStartsSql } from '../readings/fwi-days-sql';
import { AUTOMATIC_LOCK, replaceAutomatic, type AutomaticDecisionContent, type AutomaticDecisionCounts } from './automatic-sql';
import type { DecisionRow } from './decisions-csv';
import type { Scope } from './scope';
import type { DECISION_ORIGINS, DECISION_TYPES } from './tables';

type WildfireDatabase = Pick<Database<typeof schema>, 'db' | 'pool' | 'kind'>;

export interface StoredDecision {
  decision_id: string;
  type: (typeof DECISION_TYPES)[number];
  title: string;
  scope_level: Scope['level'];
  scope_code: string;
  date_from: string;
  date_to: string | null;
  measures: string[];
  legal_basis: string | null;
  source_url: string | null;
  origin: (typeof DECISION_ORIGINS)[number];
  /** An automatic decision of forecast days (forecast-decisions.ts). */
  forecast: boolean;
  created_at: Date;
}

/** The id of a decision: a digest of its natural key, so the same row always gets the same id. */
export function decisionId(scopeCode: string, type: string, dateFrom: string, title: string): string {
  return `dec_${createHash('sha256').update([scopeCode, type, dateFrom, title].join('\u0000')).digest('hex').slice(0, 24)}`;
}

const STAGING = bulkColumns({
  decision_id: 'text',
  type: 'text',
  title: 'text',
  scope_level: 'text',
  scope_code: 'text',
  date_from: 'date',
  date_to: 'date',
  measures: 'text',
  legal_basis: 'text',
  source_url: 'text',
});
const VALUES = ['date_to', 'measures', 'legal_basis', 'source_url'] as const;
const INGEST_LOCK = 'wildfire:ingest-decisions';

function decisionIngestion(client: pg.ClientBase, mode: BulkMode, now: Date) {
  return {
    async stage(rows: AsyncIterable<DecisionRow>): Promise<number> {
      async function* values() {
        for await (const r of rows) {
          yield [decisionId(r.scope.code, r.type, r.dateFrom, r.title), r.type, r.title, r.scope.level, r.scope.code, r.dateFrom, r.dateTo, JSON.stringify(r.measures), r.legalBasis, r.sourceUrl];
        }
      }
      return stageRows(client, mode, 'decisions_staging', STAGING, values());
    },

    /** Upserts the staged decisions as `ingested`; identical rows are left alone. */
    async merge(): Promise<MergeCounts> {
      const { rows } = await client.query<MergeCounts>(
        `WITH up AS (
           INSERT INTO decisions (decision_id, type, title, scope_level, scope_code, date_from, date_to, measures, legal_basis, source_url, origin, created_at, updated_at)
           SELECT decision_id, type, title, scope_level, scope_code, date_from, date_to, measures::jsonb, legal_basis, source_url, 'ingested', $1, $1 FROM decisions_staging
           ON CONFLICT (decision_id) DO UPDATE SET ${VALUES.map((c) => `${c} = excluded.${c}`).join(', ')}, updated_at = excluded.updated_at
           WHERE (${VALUES.map((c) => `decisions.${c}`).join(', ')}) IS DISTINCT FROM (${VALUES.map((c) => `excluded.${c}`).join(', ')})
           RETURNING (xmax = 0) AS inserted)
         SELECT (count(*) FILTER (WHERE inserted))::int AS inserted, (count(*) FILTER (WHERE NOT inserted))::int AS updated FROM up`,
        [now],
      );
      return rows[0]!;
    },
  };
}

export type DecisionIngestion = ReturnType<typeof decisionIngestion>;

export interface DecisionFilter {
  scopes: readonly Scope[];
  /** Only decisions of these origins (default: both). */
  origins?: readonly (typeof DECISION_ORIGINS)[number][];
  /** Decisions in force on some day from `from` to `to` (either may be absent). */
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

/** The only code that touches the decisions table. */
export function createDecisionsRepository(database: WildfireDatabase) {
  const { pool } = database;
  const mode = bulkModeFor(database.kind);

  function where(filter: DecisionFilter): { sql: string; params: unknown[] } {
    const params: unknown[] = [filter.scopes.map((s) => s.level), filter.scopes.map((s) => s.code)];
    let sql = '(scope_level, scope_code) IN (SELECT * FROM unnest($1::text[], $2::text[]))';
    if (filter.from !== undefined) {
      params.push(filter.from);
      sql += ` AND (date_to IS NULL OR date_to >= $${params.length}::date)`;
    }
    if (filter.to !== undefined) {
      params.push(filter.to);
      sql += ` AND date_from <= $${params.length}::date`;
    }
    if (filter.origins !== undefined) {
      params.push(filter.origins);
      sql += ` AND origin = ANY($${params.length}::text[])`;
    }
    return { sql, params };
  }

  return {
    /** Runs `work` in one transaction holding the decisions-ingestion lock; any throw rolls everything back. */
    withIngestion<T>(now: Date, work: (ingestion: DecisionIngestion) => Promise<T>): Promise<T> {
      return withLockedTransaction(pool, INGEST_LOCK, (client) => work(decisionIngestion(client, mode, now)));
    },

    replaceAutomatic,

    /** Recomputes the automatic decisions of every municipality with stored readings, from its first stored day, in one transaction. */
    rebuildAutomatic(content: AutomaticDecisionContent, now: Date): Promise<AutomaticDecisionCounts & { municipalities: number }> {
      return withLockedTransaction(pool, AUTOMATIC_LOCK, async (client) => {
        const { rows } = await client.query<{ municipio_id: string; first: string }>(storedSeriesStartsSql());
        return { municipalities: rows.length, ...(await replaceAutomatic(client, rows, content, now)) };
      });
    },

    /** Matching decisions, newest first (latest date_from, then latest date_to, open-ended first), and their total. */
    async list(filter: DecisionFilter): Promise<{ total: number; rows: StoredDecision[] }> {
      const { sql, params } = where(filter);
      const count = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM decisions WHERE ${sql}`, params);
      const page = await pool.query<StoredDecision>(
        `SELECT decision_id, type, title, scope_level, scope_code, date_from::text, date_to::text, measures, legal_basis, source_url, origin, forecast, created_at
         FROM decisions WHERE ${sql}
         ORDER BY date_from DESC, date_to DESC NULLS FIRST, decision_id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, filter.limit, filter.offset],
      );
      return { total: count.rows[0]!.n, rows: page.rows };
    },
  };
}

export type DecisionsRepository = ReturnType<typeof createDecisionsRepository>;
