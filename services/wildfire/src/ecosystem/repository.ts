import { eq } from 'drizzle-orm';
import { withLockedTransaction } from '../db/locked-transaction';
import type pg from 'pg';
import type { Database } from '@firma-riesgo/service-kit';
import type { schema } from '../db';
import { bulkColumns, bulkModeFor, type BulkMode } from '../db/bulk-load';
import { bulkMerge, stageRows, type MergeCounts } from '../db/bulk-merge';
import type { VegetationType } from './classes';
import type { EcosystemRow } from './ecosystem-csv';
import { ecosystems } from './tables';

type WildfireDatabase = Pick<Database<typeof schema>, 'db' | 'pool' | 'kind'>;

export interface StoredEcosystem {
  vegetationType: VegetationType;
  fuelModel: number | null;
  fuelLoadTHa: number;
  forestCoverPct: number;
  updatedAt: Date;
}

const STAGING_COLUMNS = bulkColumns({ municipio_id: 'text', vegetation_type: 'text', fuel_model: 'int4', fuel_load_t_ha: 'float8', forest_cover_pct: 'float8' });
const VALUE_COLUMNS = ['vegetation_type', 'fuel_model', 'fuel_load_t_ha', 'forest_cover_pct'] as const;

const INGEST_LOCK = 'wildfire:ingest-ecosystem';

/** One ecosystem ingestion on one connection inside one transaction: staged, then merged, or nothing. */
function ecosystemIngestion(client: pg.ClientBase, mode: BulkMode) {
  return {
    /** Streams the rows into a staging table; a row failing validation aborts the load. */
    async stage(rows: AsyncIterable<EcosystemRow>): Promise<number> {
      async function* values() {
        for await (const r of rows) yield [r.municipioId, r.vegetationType, r.fuelModel, r.fuelLoadTHa, r.forestCoverPct];
      }
      return stageRows(client, mode, 'ecosystem_staging', STAGING_COLUMNS, values());
    },

    /** Upserts the staged rows; rows identical to what is stored keep their `updated_at` (and count as unchanged). */
    merge: (): Promise<MergeCounts> =>
      bulkMerge(client, {
        table: 'ecosystems',
        staging: 'ecosystem_staging',
        key: ['municipio_id'],
        values: VALUE_COLUMNS,
        stamp: 'updated_at',
        skipUnchanged: true,
      }),
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

    /** The stored ecosystem of a municipality, or null when `ingest ecosystem` has not loaded one. */
    async find(municipioId: string): Promise<StoredEcosystem | null> {
      const [row] = await db
        .select({
          vegetationType: ecosystems.vegetationType,
          fuelModel: ecosystems.fuelModel,
          fuelLoadTHa: ecosystems.fuelLoadTHa,
          forestCoverPct: ecosystems.forestCoverPct,
          updatedAt: ecosystems.updatedAt,
        })
        .from(ecosystems)
        .where(eq(ecosystems.municipioId, municipioId))
        .limit(1);
      return row ?? null;
    },
  };
}

export type EcosystemRepository = ReturnType<typeof createEcosystemRepository>;
