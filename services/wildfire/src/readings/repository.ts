import { and, asc, desc, eq, gte, lte } from 'drizzle-orm';
import { withLockedTransaction } from '../db/locked-transaction';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Database } from '@firma-riesgo/service-kit';
import type { schema } from '../db';
import { bulkLoadColumns, bulkLoadColumnsAsFilled, bulkModeFor, type BulkMode } from '../db/bulk-load';
import type { ColumnSource } from '../db/binary-copy';
import { bulkMerge, type MergeCounts } from '../db/bulk-merge';
import { type StoredStart } from './compute-readings';
import { LABEL_NUMBER, READING_VALUE_COLUMNS, ReadingColumns } from './reading-columns';
import type { RiskLabel } from '../risk/risk-score';
import type { Reading } from './reading';
import type { Place } from '../municipalities/repository';
import { StoredReadingsDecoder } from './stored-readings-binary';
import { readingDays, readings } from './tables';

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

const READING_KEY = ['municipio_id', 'date'] as const;
const READING_VALUES = [...READING_VALUE_COLUMNS, 'risk_label'];

const INGEST_LOCK = 'wildfire:ingest-weather';

/** The columns of `readingColumns`, in SQL, for the prepared latest-reading query. */
const LATEST_READING = `SELECT date::text AS date, temp, rh, ws, prec, ffmc, dmc, dc, isi, bui, fwi, dsr, risk_score AS "riskScore", risk_label AS "riskLabel"
  FROM readings WHERE municipio_id = $1 ORDER BY date DESC LIMIT 1`;

/**
 * Every municipality's reading of one day with its place, in INE code order: the whole-area
 * reads' one query (a primary-key probe of readings per municipality; one without a reading
 * that day is absent).
 */
/** The stored readings of one day of a list of municipalities (the alerts' triggering). */
const READINGS_ON_DAY = `SELECT municipio_id AS "municipioId", date::text AS date, temp, rh, ws, prec, ffmc, dmc, dc, isi, bui, fwi, dsr, risk_score AS "riskScore", risk_label AS "riskLabel"
  FROM readings WHERE municipio_id = ANY($1::text[]) AND date = $2::date ORDER BY municipio_id`;

const TERRITORY_DAY = `SELECT m.ine_code AS "ineCode", m.name, m.province_code AS "provinceCode", m.province, m.community_code AS "communityCode", m.community, m.lat, m.lon,
  r.date::text AS date, r.temp, r.rh, r.ws, r.prec, r.ffmc, r.dmc, r.dc, r.isi, r.bui, r.fwi, r.dsr, r.risk_score AS "riskScore", r.risk_label AS "riskLabel"
  FROM municipalities m JOIN readings r ON r.municipio_id = m.ine_code AND r.date = $1::date ORDER BY m.ine_code`;

/** Each touched municipality with its first day in the file, as a relation t(municipio_id, first) from $1 and $2. */
const TOUCHED = 'unnest($1::text[], $2::date[]) AS t(municipio_id, first)';

/** The municipalities of a file and each one's first day there. */
export interface TouchedMunicipality {
  municipio_id: string;
  first: string;
}

const touchedParams = (touched: readonly TouchedMunicipality[]) => [touched.map((t) => t.municipio_id), touched.map((t) => t.first)];

/**
 * One weather ingestion, inside one transaction on one connection: the computed
 * readings are written at the end, or nothing is.
 */
export function weatherIngestion(client: pg.ClientBase, mode: BulkMode) {
  return {
    /** The ingestion's transaction, for collaborators that must commit or roll back with it (automatic decisions). */
    transaction: client,

    /**
     * The readings table has no foreign key to municipalities (migration 0009): this is
     * its check, one query for the whole file instead of one per row. Locks every code
     * of the file that names a municipality (`FOR KEY SHARE`, as the foreign key did),
     * so none can be deleted or re-coded before the transaction ends; returns the codes
     * that name none (deleted since the file was validated).
     */
    async lockMunicipalities(codes: readonly string[]): Promise<string[]> {
      const { rows } = await client.query<{ ine_code: string }>('SELECT ine_code FROM municipalities WHERE ine_code = ANY($1::text[]) FOR KEY SHARE', [codes]);
      const present = new Set(rows.map((r) => r.ine_code));
      return codes.filter((code) => !present.has(code));
    },

    /** For each touched municipality, the stored day just before its first day in the file and its codes: one query. */
    async starts(touched: readonly TouchedMunicipality[]): Promise<StoredStart[]> {
      const { rows } = await client.query<StoredStart>(
        `SELECT t.municipio_id, s.day, s.ffmc, s.dmc, s.dc FROM ${TOUCHED}
         CROSS JOIN LATERAL (SELECT r.date - DATE '2000-01-01' AS day, r.ffmc, r.dmc, r.dc FROM readings r
           WHERE r.municipio_id = t.municipio_id AND r.date < t.first ORDER BY r.date DESC LIMIT 1) s`,
        touchedParams(touched),
      );
      return rows;
    },

    /**
     * Every stored reading of the touched municipalities from each one's first day in the
     * file on, grouped per municipality, in date order. On Postgres through a binary
     * `COPY ... TO STDOUT` (COPY takes no parameters, hence the temporary table of the
     * touched municipalities), so no number is parsed from text. Returned as columns,
     * each municipality numbered by `numberOf`.
     */
    async storedFrom(touched: readonly TouchedMunicipality[], numberOf: (municipioId: string) => number): Promise<ReadingColumns> {
      const columns = `r.municipio_id, (r.date - DATE '2000-01-01')::int4, ${READING_VALUES.map((c) => `r.${c}`).join(', ')}`;
      if (mode === 'copy') {
        await client.query('CREATE TEMP TABLE readings_touched (municipio_id text PRIMARY KEY, first date NOT NULL) ON COMMIT DROP');
        await client.query(`INSERT INTO readings_touched SELECT * FROM ${TOUCHED}`, touchedParams(touched));
        const decoder = new StoredReadingsDecoder(numberOf);
        const sql = `COPY (SELECT ${columns} FROM readings_touched t JOIN readings r ON r.municipio_id = t.municipio_id AND r.date >= t.first ORDER BY 1, 2) TO STDOUT WITH (FORMAT binary)`;
        for await (const chunk of client.query(copyTo(sql)) as AsyncIterable<Buffer>) decoder.push(chunk);
        return decoder.end();
      }
      const { rows } = await client.query<[string, number, ...number[]]>({
        text: `SELECT ${columns} FROM ${TOUCHED} JOIN readings r ON r.municipio_id = t.municipio_id AND r.date >= t.first ORDER BY 1, 2`,
        values: touchedParams(touched),
        rowMode: 'array',
      });
      const stored = new ReadingColumns(rows.length);
      const values = new Float64Array(READING_VALUE_COLUMNS.length);
      for (const row of rows) {
        for (let k = 0; k < values.length; k++) values[k] = row[k + 2] as number;
        stored.push(numberOf(row[0]), row[1], values, LABEL_NUMBER[row[values.length + 2] as unknown as RiskLabel]);
      }
      return stored;
    },

    /**
     * Writes readings that have no stored row straight into the table (COPY on
     * Postgres), batch by batch as `filled` says they are computed (see
     * `bulkLoadColumnsAsFilled`).
     */
    insert: (sources: () => readonly ColumnSource[], filled: Iterable<number>): Promise<number> => bulkLoadColumnsAsFilled(client, mode, 'readings', sources, filled),

    /**
     * Stamps `at` on every day from `first` to the last stored reading of the municipalities
     * (at least `last`): the days whose readings the ingestion may have written or recomputed.
     */
    async markDaysChanged(first: string, last: string, codes: readonly string[], at: Date): Promise<void> {
      await client.query(
        `INSERT INTO reading_days (date, changed_at)
         SELECT d::date, $4 FROM generate_series($1::date,
           greatest($2::date, (SELECT max(r.date) FROM unnest($3::text[]) AS t(municipio_id)
             CROSS JOIN LATERAL (SELECT date FROM readings WHERE municipio_id = t.municipio_id ORDER BY date DESC LIMIT 1) r)), interval '1 day') AS d
         ON CONFLICT (date) DO UPDATE SET changed_at = excluded.changed_at`,
        [first, last, codes, at],
      );
    },
    /** Overwrites stored readings with these changed ones, through a staging table merged in one statement. */
    async update(sources: readonly ColumnSource[], length: number): Promise<MergeCounts> {
      if (length === 0) return { inserted: 0, updated: 0 };
      await client.query('CREATE TEMP TABLE readings_staging (LIKE readings) ON COMMIT DROP');
      await bulkLoadColumns(client, mode, 'readings_staging', sources, length);
      return bulkMerge(client, { table: 'readings', staging: 'readings_staging', key: READING_KEY, values: READING_VALUES, skipUnchanged: true });
    },
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

    /**
     * The stored readings of `date` of these municipalities, by code; a municipality
     * without one that day is absent. One statement, an index probe per code.
     */
    async onDay(codes: readonly string[], date: string): Promise<(Reading & { municipioId: string })[]> {
      if (codes.length === 0) return [];
      const { rows } = await pool.query<Reading & { municipioId: string }>({ name: 'wildfire-readings-on-day', text: READINGS_ON_DAY, values: [codes, date] });
      return rows;
    },
    /** Every municipality's stored reading of `date` with its place (absent: none that day), in INE code order: one statement. */
    async territoryDay(date: string): Promise<(Reading & Place)[]> {
      const { rows } = await pool.query<Reading & Place>({ name: 'wildfire-readings-territory-day', text: TERRITORY_DAY, values: [date] });
      return rows;
    },
    /** When the readings of `date` last changed (reading_days), or null when none was ever loaded. */
    async dayChangedAt(date: string): Promise<Date | null> {
      const [row] = await db.select({ changedAt: readingDays.changedAt }).from(readingDays).where(eq(readingDays.date, date));
      return row?.changedAt ?? null;
    },
    /** The newest day with loaded readings, not after `upTo`, or null. */
    async newestDay(upTo: string): Promise<string | null> {
      const [row] = await db.select({ date: readingDays.date }).from(readingDays).where(lte(readingDays.date, upTo)).orderBy(desc(readingDays.date)).limit(1);
      return row?.date ?? null;
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
