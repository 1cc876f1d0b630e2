import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { withLockedTransaction } from '../db/locked-transaction';
import type pg from 'pg';
import type { Database } from '@firma-riesgo/service-kit';
import type { schema } from '../db';
import { bulkColumns, bulkLoad, bulkModeFor, type BulkColumn, type BulkMode } from '../db/bulk-load';
import { bulkMerge, stageRows, type MergeCounts } from '../db/bulk-merge';
import type { FwiCodes } from '../fwi';
import type { Reading } from './reading';
import { readings } from './tables';
import type { WeatherRow } from './weather-csv';

type WildfireDatabase = Pick<Database<typeof schema>, 'db' | 'pool' | 'kind'>;

const readingColumns = {
  date: readings.date,
  temp: readings.temp,
  rh: readings.rh,
  ws: readings.ws,
  prec: readings.prec,
  ffmc: readings.ffmc,
  dmc: readings.dmc,
  dc: readings.dc,
  isi: readings.isi,
  bui: readings.bui,
  fwi: readings.fwi,
  dsr: readings.dsr,
  riskScore: readings.riskScore,
  riskLabel: readings.riskLabel,
};

/** A day of weather to (re)compute: from the file, or already stored after the file's first day. */
export interface SeriesDay {
  municipio_id: string;
  date: string;
  temp: number;
  rh: number;
  ws: number;
  prec: number;
}

/** The stored day just before a municipality's first day in the file: where its codes continue from. */
export interface SeriesStart extends FwiCodes {
  municipio_id: string;
  date: string;
}

const WEATHER_STAGING = bulkColumns({ line: 'int4', municipio_id: 'text', date: 'date', temp: 'float8', rh: 'float8', ws: 'float8', prec: 'float8' });

const READING_COLUMNS = ['municipio_id', 'date', 'temp', 'rh', 'ws', 'prec', 'ffmc', 'dmc', 'dc', 'isi', 'bui', 'fwi', 'dsr', 'risk_score', 'risk_label'] as const;
const READING_KEY = ['municipio_id', 'date'] as const;
const READING_VALUES = READING_COLUMNS.filter((c) => !(READING_KEY as readonly string[]).includes(c));
const READINGS_STAGING: readonly BulkColumn[] = READING_COLUMNS.map((name) => ({
  name,
  type: name === 'municipio_id' || name === 'risk_label' ? 'text' : name === 'date' ? 'date' : 'float8',
}));

const INGEST_LOCK = 'wildfire:ingest-weather';

/** The columns of `readingColumns`, in SQL, for the prepared latest-reading query. */
const LATEST_READING = `SELECT date::text AS date, temp, rh, ws, prec, ffmc, dmc, dc, isi, bui, fwi, dsr, risk_score AS "riskScore", risk_label AS "riskLabel"
  FROM readings WHERE municipio_id = $1 ORDER BY date DESC LIMIT 1`;

/**
 * One weather ingestion, inside one transaction on one connection: the file is
 * staged, checked, and merged into `readings` at the end, or nothing is.
 */
export function weatherIngestion(client: pg.ClientBase, mode: BulkMode) {
  // The municipalities of the file and, for each, its first day there.
  const FIRST_DAYS = 'SELECT municipio_id, min(date) AS first FROM weather_staging WHERE municipio_id = ANY($1) GROUP BY municipio_id';
  return {
    /** The ingestion's transaction, for collaborators that must commit or roll back with it (automatic decisions). */
    transaction: client,

    async stage(rows: AsyncIterable<WeatherRow>): Promise<number> {
      async function* values() {
        for await (const r of rows) yield [r.line, r.municipioId, r.date, r.temp, r.rh, r.ws, r.prec];
      }
      const count = await stageRows(client, mode, 'weather_staging', WEATHER_STAGING, values());
      await client.query('CREATE INDEX ON weather_staging (municipio_id, date)');
      await client.query('ANALYZE weather_staging');
      return count;
    },

    /** The first repeated municipality-day, with the lines it appears on. */
    async firstDuplicate(): Promise<{ municipio_id: string; date: string; lines: number[] } | null> {
      const { rows } = await client.query<{ municipio_id: string; date: string; lines: number[] }>(
        `SELECT municipio_id, date::text AS date, array_agg(line ORDER BY line) AS lines FROM weather_staging
         GROUP BY municipio_id, date HAVING count(*) > 1 ORDER BY (array_agg(line ORDER BY line))[2] LIMIT 1`,
      );
      return rows[0] ?? null;
    },

    async stagedMunicipalities(): Promise<{ municipio_id: string; first: string; last: string }[]> {
      const { rows } = await client.query<{ municipio_id: string; first: string; last: string }>(
        'SELECT municipio_id, min(date)::text AS first, max(date)::text AS last FROM weather_staging GROUP BY municipio_id ORDER BY municipio_id',
      );
      return rows;
    },

    /**
     * For these municipalities: every day from their first day in the file on, the
     * file's weather winning over stored weather, in order; and the stored codes of
     * the day before, where there is one.
     */
    async series(municipioIds: string[]): Promise<{ days: SeriesDay[]; starts: SeriesStart[] }> {
      const days = await client.query<SeriesDay>(
        `WITH f AS (${FIRST_DAYS})
         SELECT s.municipio_id, s.date::text AS date, s.temp, s.rh, s.ws, s.prec FROM weather_staging s WHERE s.municipio_id = ANY($1)
         UNION ALL
         SELECT r.municipio_id, r.date::text, r.temp, r.rh, r.ws, r.prec FROM readings r JOIN f ON f.municipio_id = r.municipio_id AND r.date > f.first
         WHERE NOT EXISTS (SELECT 1 FROM weather_staging s WHERE s.municipio_id = r.municipio_id AND s.date = r.date)
         ORDER BY 1, 2`,
        [municipioIds],
      );
      const starts = await client.query<SeriesStart>(
        `WITH f AS (${FIRST_DAYS})
         SELECT DISTINCT ON (r.municipio_id) r.municipio_id, r.date::text AS date, r.ffmc, r.dmc, r.dc
         FROM readings r JOIN f ON f.municipio_id = r.municipio_id AND r.date < f.first
         ORDER BY r.municipio_id, r.date DESC`,
        [municipioIds],
      );
      return { days: days.rows, starts: starts.rows };
    },

    async createReadingsStaging(): Promise<void> {
      await client.query('CREATE TEMP TABLE readings_staging (LIKE readings) ON COMMIT DROP');
    },

    async stageReadings(computed: Iterable<readonly (string | number)[]>): Promise<number> {
      return bulkLoad(client, mode, 'readings_staging', READINGS_STAGING, computed);
    },

    /** Upserts the computed readings; rows identical to what is stored are left alone (and counted as unchanged). */
    merge: (): Promise<MergeCounts> =>
      bulkMerge(client, { table: 'readings', staging: 'readings_staging', key: READING_KEY, values: READING_VALUES, skipUnchanged: true }),
  };
}

export type WeatherIngestion = ReturnType<typeof weatherIngestion>;

/** The only code that touches the readings table. */
export function createReadingsRepository(database: WildfireDatabase) {
  const { db, pool } = database;
  const mode = bulkModeFor(database.kind);
  return {
    /**
     * Runs `work` in one transaction holding the weather-ingestion lock, so two
     * ingestions never interleave their series; any throw rolls everything back.
     */
    async withWeatherIngestion<T>(work: (ingestion: WeatherIngestion) => Promise<T>): Promise<T> {
      return withLockedTransaction(pool, INGEST_LOCK, (client) => work(weatherIngestion(client, mode)));
    },

    /**
     * The municipality's latest stored reading, or null when none is stored. The m1 hot
     * path: one primary-key scan, as a named (prepared once per connection) statement.
     */
    async latest(municipioId: string): Promise<Reading | null> {
      const { rows } = await pool.query<Reading>({ name: 'wildfire-readings-latest', text: LATEST_READING, values: [municipioId] });
      return rows[0] ?? null;
    },

    /** Stored readings from `from` to `to` (both included), in date order. */
    async range(municipioId: string, from: string, to: string): Promise<Reading[]> {
      return db
        .select(readingColumns)
        .from(readings)
        .where(and(eq(readings.municipioId, municipioId), gte(readings.date, from), lte(readings.date, to)))
        .orderBy(asc(readings.date));
    },

    /** The stored FWI of every day inside any of the windows (each `from`..`to`, both included), in date order. */
    async fwiInWindows(municipioId: string, windows: readonly { from: string; to: string }[]): Promise<{ date: string; fwi: number }[]> {
      if (windows.length === 0) return [];
      const { rows } = await pool.query<{ date: string; fwi: number }>(
        `SELECT DISTINCT r.date::text AS date, r.fwi FROM readings r
         JOIN unnest($2::date[], $3::date[]) AS w(first, last) ON r.date BETWEEN w.first AND w.last
         WHERE r.municipio_id = $1 ORDER BY 1`,
        [municipioId, windows.map((w) => w.from), windows.map((w) => w.to)],
      );
      return rows;
    },
  };
}

export type ReadingsRepository = ReturnType<typeof createReadingsRepository>;
