import { eq, sql } from 'drizzle-orm';
import { withLockedTransaction } from '../db/locked-transaction';
import type pg from 'pg';
import type { Database } from '@firma-riesgo/service-kit';
import type { schema } from '../db';
import { bulkLoad, bulkModeFor, type BulkColumn, type BulkMode } from '../db/bulk-load';
import { municipalities } from '../municipalities/tables';
import type { VegetationType } from './classes';
import type { EcosystemRow } from './ecosystem-csv';

type WildfireDatabase = Pick<Database<typeof schema>, 'db' | 'pool' | 'kind'>;

export interface MunicipalityNames {
  name: string;
  province: string;
  community: string;
}

export interface StoredEcosystem {
  vegetationType: VegetationType;
  fuelModel: number | null;
  fuelLoadTHa: number;
  forestCoverPct: number;
  updatedAt: Date;
}

/** The noon weather of a municipality's latest stored reading: what its fuel moisture index comes from. */
export interface LatestWeather {
  date: string;
  temp: number;
  rh: number;
}

interface ProfileRow extends MunicipalityNames {
  vegetation_type: VegetationType | null;
  fuel_model: number | null;
  fuel_load_t_ha: number | null;
  forest_cover_pct: number | null;
  updated_at: Date | string | null;
  weather_date: string | null;
  temp: number | null;
  rh: number | null;
}

const STAGING_COLUMNS: readonly BulkColumn[] = [
  { name: 'municipio_id', type: 'text' },
  { name: 'vegetation_type', type: 'text' },
  { name: 'fuel_model', type: 'int4' },
  { name: 'fuel_load_t_ha', type: 'float8' },
  { name: 'forest_cover_pct', type: 'float8' },
];
const VALUE_COLUMNS = ['vegetation_type', 'fuel_model', 'fuel_load_t_ha', 'forest_cover_pct'] as const;

const INGEST_LOCK = 'wildfire:ingest-ecosystem';

/** One ecosystem ingestion on one connection inside one transaction: staged, then merged, or nothing. */
function ecosystemIngestion(client: pg.ClientBase, mode: BulkMode) {
  return {
    /** Streams the rows into a staging table; a row failing validation aborts the load. */
    async stage(rows: AsyncIterable<EcosystemRow>): Promise<number> {
      await client.query(
        'CREATE TEMP TABLE ecosystem_staging (municipio_id text, vegetation_type text, fuel_model int4, fuel_load_t_ha float8, forest_cover_pct float8) ON COMMIT DROP',
      );
      async function* values() {
        for await (const r of rows) yield [r.municipioId, r.vegetationType, r.fuelModel, r.fuelLoadTHa, r.forestCoverPct];
      }
      return bulkLoad(client, mode, 'ecosystem_staging', STAGING_COLUMNS, values());
    },

    /** Upserts the staged rows; rows identical to what is stored keep their `updated_at` (and count as unchanged). */
    async merge(): Promise<{ inserted: number; updated: number }> {
      const { rows } = await client.query<{ inserted: number; updated: number }>(
        `WITH up AS (
           INSERT INTO ecosystems (municipio_id, ${VALUE_COLUMNS.join(', ')}, updated_at)
           SELECT municipio_id, ${VALUE_COLUMNS.join(', ')}, now() FROM ecosystem_staging
           ON CONFLICT (municipio_id) DO UPDATE SET ${VALUE_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}, updated_at = excluded.updated_at
           WHERE (${VALUE_COLUMNS.map((c) => `ecosystems.${c}`).join(', ')}) IS DISTINCT FROM (${VALUE_COLUMNS.map((c) => `excluded.${c}`).join(', ')})
           RETURNING (xmax = 0) AS inserted)
         SELECT (count(*) FILTER (WHERE inserted))::int AS inserted, (count(*) FILTER (WHERE NOT inserted))::int AS updated FROM up`,
      );
      return rows[0]!;
    },
  };
}

export type EcosystemIngestion = ReturnType<typeof ecosystemIngestion>;

/** The only code that touches the ecosystems table. */
export function createEcosystemRepository(database: WildfireDatabase) {
  const { db, pool } = database;
  const mode = bulkModeFor(database.kind);
  return {
    /** Runs `work` in one transaction holding the ecosystem-ingestion lock; any throw rolls everything back. */
    async withIngestion<T>(work: (ingestion: EcosystemIngestion) => Promise<T>): Promise<T> {
      return withLockedTransaction(pool, INGEST_LOCK, (client) => work(ecosystemIngestion(client, mode)));
    },

    /**
     * In one round trip: the municipality (null when no municipality has the code),
     * its stored ecosystem and the weather of its latest reading (each null when
     * nothing is stored). What live tokens read.
     */
    async observed(
      municipioId: string,
    ): Promise<{ municipality: MunicipalityNames; ecosystem: StoredEcosystem | null; weather: LatestWeather | null } | null> {
      const result = await db.execute<Record<string, unknown>>(sql`
        SELECT m.name, m.province, m.community,
               e.vegetation_type, e.fuel_model, e.fuel_load_t_ha, e.forest_cover_pct, e.updated_at,
               r.date::text AS weather_date, r.temp, r.rh
        FROM municipalities m
        LEFT JOIN ecosystems e ON e.municipio_id = m.ine_code
        LEFT JOIN LATERAL (
          SELECT date, temp, rh FROM readings WHERE readings.municipio_id = m.ine_code ORDER BY readings.date DESC LIMIT 1
        ) r ON true
        WHERE m.ine_code = ${municipioId}`);
      const row = result.rows[0] as ProfileRow | undefined;
      if (!row) return null;
      const ecosystem: StoredEcosystem | null =
        row.vegetation_type === null
          ? null
          : {
              vegetationType: row.vegetation_type,
              fuelModel: row.fuel_model,
              fuelLoadTHa: row.fuel_load_t_ha!,
              forestCoverPct: row.forest_cover_pct!,
              updatedAt: new Date(row.updated_at!),
            };
      const weather = row.weather_date === null ? null : { date: row.weather_date, temp: row.temp!, rh: row.rh! };
      return { municipality: { name: row.name, province: row.province, community: row.community }, ecosystem, weather };
    },

    /** The municipality's names, or null when no municipality has the code: all that test tokens read from the database. */
    async municipality(municipioId: string): Promise<MunicipalityNames | null> {
      const [row] = await db
        .select({ name: municipalities.name, province: municipalities.province, community: municipalities.community })
        .from(municipalities)
        .where(eq(municipalities.ineCode, municipioId))
        .limit(1);
      return row ?? null;
    },
  };
}

export type EcosystemRepository = ReturnType<typeof createEcosystemRepository>;
