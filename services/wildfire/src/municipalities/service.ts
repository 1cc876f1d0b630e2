import { readFile } from 'node:fs/promises';
import { parseNomenclator, type NomenclatorFormat } from './nomenclator-csv';
import { REGISTRY_SEED_NAME, REGISTRY_VERSION, registryMunicipalities } from './registry';
import type { MunicipalitiesRepository } from './repository';

export interface MunicipalityIngestSummary {
  format: NomenclatorFormat;
  rows: number;
  inserted: number;
  updated: number;
}

export function createMunicipalitiesService(repo: MunicipalitiesRepository) {
  return {
    /**
     * Start-up step after the migrations: loads the built-in registry when the table is
     * empty or the registry package changed version; otherwise costs one query.
     * Returns how many municipalities it inserted.
     */
    async seedRegistryIfNeeded(): Promise<number> {
      if ((await repo.seedVersion(REGISTRY_SEED_NAME)) === REGISTRY_VERSION && (await repo.count()) > 0) return 0;
      return repo.seedRegistry(registryMunicipalities(), REGISTRY_SEED_NAME, REGISTRY_VERSION);
    },

    exists: (ineCode: string) => repo.exists(ineCode),
    find: (ineCode: string) => repo.find(ineCode),
    locations: () => repo.locations(),

    /** `wildfire ingest municipalities FILE`: every row is validated before anything is written. */
    async ingestFile(path: string): Promise<MunicipalityIngestSummary> {
      const { format, rows } = await parseNomenclator(await readFile(path));
      const { inserted, updated } = await repo.upsertEnrichment(rows);
      return { format, rows: rows.length, inserted, updated };
    },
  };
}

export type MunicipalitiesService = ReturnType<typeof createMunicipalitiesService>;
