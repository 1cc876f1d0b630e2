import type pg from 'pg';
import type { Database } from '@firma-riesgo/service-kit';
import type { schema } from '../db';
import { bulkColumns, bulkModeFor, type BulkMode } from '../db/bulk-load';
import { stageRows, type MergeCounts } from '../db/bulk-merge';
import { withLockedTransaction } from '../db/locked-transaction';
import { RECORD_SEED_SQL, SEED_VERSION_SQL } from '../municipalities/seed-state-sql';
import type { SeasonRow } from './seasons-table';
import type { SEASON_ORIGINS } from './tables';

type WildfireDatabase = Pick<Database<typeof schema>, 'db' | 'pool' | 'kind'>;

export interface StoredSeason extends SeasonRow {
  origin: (typeof SEASON_ORIGINS)[number];
}

const LOCK = 'wildfire:danger-seasons';
const COLUMNS = ['community_code', 'name', 'from_day', 'to_day', 'authority', 'source_title', 'source_url', 'measures', 'note'] as const;
const VALUES = COLUMNS.filter((c) => c !== 'community_code');
const STAGING = bulkColumns({
  community_code: 'text',
  name: 'text',
  from_day: 'text',
  to_day: 'text',
  authority: 'text',
  source_title: 'text',
  source_url: 'text',
  measures: 'text',
  note: 'text',
});
const valuesOf = (r: SeasonRow) => [r.communityCode, r.name, r.fromDay, r.toDay, r.authority, r.sourceTitle, r.sourceUrl, JSON.stringify(r.measures), r.note];

/**
 * Upserts the staged rows with `origin`. `onlyBuiltin`: a stored row an operator
 * ingested is left alone (the start-up seed); otherwise every listed row is replaced.
 * Rows equal to the stored ones are not rewritten.
 */
async function mergeStaged(client: pg.ClientBase, origin: 'builtin' | 'ingested', now: Date, onlyBuiltin: boolean): Promise<MergeCounts> {
  const changed = `(${[...VALUES, 'origin'].map((c) => `danger_seasons.${c}`).join(', ')}) IS DISTINCT FROM (${[...VALUES, 'origin'].map((c) => `excluded.${c}`).join(', ')})`;
  const { rows } = await client.query<MergeCounts>(
    `WITH up AS (
       INSERT INTO danger_seasons (${COLUMNS.join(', ')}, origin, updated_at)
       SELECT ${COLUMNS.map((c) => (c === 'measures' ? 'measures::jsonb' : c)).join(', ')}, $1, $2 FROM seasons_staging
       ON CONFLICT (community_code) DO UPDATE SET ${[...VALUES, 'origin', 'updated_at'].map((c) => `${c} = excluded.${c}`).join(', ')}
       WHERE ${changed}${onlyBuiltin ? " AND danger_seasons.origin = 'builtin'" : ''}
       RETURNING (xmax = 0) AS inserted)
     SELECT (count(*) FILTER (WHERE inserted))::int AS inserted, (count(*) FILTER (WHERE NOT inserted))::int AS updated FROM up`,
    [origin, now],
  );
  return rows[0]!;
}

function seasonIngestion(client: pg.ClientBase, mode: BulkMode, now: Date) {
  return {
    async stage(rows: AsyncIterable<SeasonRow>): Promise<number> {
      async function* values() {
        for await (const r of rows) yield valuesOf(r);
      }
      return stageRows(client, mode, 'seasons_staging', STAGING, values());
    },
    merge: () => mergeStaged(client, 'ingested', now, false),
  };
}

export type SeasonIngestion = ReturnType<typeof seasonIngestion>;

/** The only code that touches the danger_seasons table. */
export function createSeasonsRepository(database: WildfireDatabase) {
  const { pool } = database;
  const mode = bulkModeFor(database.kind);
  return {
    async seedVersion(name: string): Promise<string | null> {
      const { rows } = await pool.query<{ version: string }>(SEED_VERSION_SQL, [name]);
      return rows[0]?.version ?? null;
    },

    /**
     * Loads the built-in rows unless `version` is already recorded: missing communities
     * are inserted and rows still `builtin` take the new values; ingested rows stay.
     * Under an advisory lock, so instances starting together seed once.
     */
    async seed(rows: readonly SeasonRow[], name: string, version: string, now: Date): Promise<number> {
      return withLockedTransaction(pool, LOCK, async (client) => {
        const current = await client.query<{ version: string }>(SEED_VERSION_SQL, [name]);
        if (current.rows[0]?.version === version) return 0;
        await stageRows(client, mode, 'seasons_staging', STAGING, rows.map(valuesOf));
        const { inserted, updated } = await mergeStaged(client, 'builtin', now, true);
        await client.query(RECORD_SEED_SQL, [name, version]);
        return inserted + updated;
      });
    },

    /** Runs `work` in one transaction holding the seasons lock; any throw rolls everything back. */
    withIngestion<T>(now: Date, work: (ingestion: SeasonIngestion) => Promise<T>): Promise<T> {
      return withLockedTransaction(pool, LOCK, (client) => work(seasonIngestion(client, mode, now)));
    },

    async find(communityCode: string): Promise<StoredSeason | null> {
      const { rows } = await pool.query<StoredSeason>(
        `SELECT community_code AS "communityCode", name, from_day AS "fromDay", to_day AS "toDay", authority, source_title AS "sourceTitle",
                source_url AS "sourceUrl", measures, note, origin
         FROM danger_seasons WHERE community_code = $1`,
        [communityCode],
      );
      return rows[0] ?? null;
    },
  };
}

export type SeasonsRepository = ReturnType<typeof createSeasonsRepository>;
