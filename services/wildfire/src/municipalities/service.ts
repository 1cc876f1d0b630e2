import { REGISTRY_SEED_NAME, REGISTRY_VERSION, registryMunicipalities, registryPoints } from './registry';
import type { MunicipalitiesRepository } from './repository';

/** How the API names a municipality. */
export interface MunicipalityNames {
  name: string;
  province: string;
  community: string;
}

export function createMunicipalitiesService(repo: Pick<MunicipalitiesRepository, 'seedVersion' | 'count' | 'seedRegistry' | 'exists' | 'find' | 'locations' | 'locationsOf' | 'inArea' | 'points'>) {
  return {
    /**
     * Start-up step after the migrations: loads the built-in registry (codes, names and
     * points) when the table is empty or the registry package or its points changed
     * version; otherwise costs one query.
     * Returns how many municipalities it inserted.
     */
    async seedRegistryIfNeeded(): Promise<number> {
      if ((await repo.seedVersion(REGISTRY_SEED_NAME)) === REGISTRY_VERSION && (await repo.count()) > 0) return 0;
      return repo.seedRegistry(registryMunicipalities(), registryPoints(), REGISTRY_SEED_NAME, REGISTRY_VERSION);
    },

    exists: (ineCode: string) => repo.exists(ineCode),
    find: (ineCode: string) => repo.find(ineCode),
    locations: () => repo.locations(),
    /** The locations of these codes only (a weather file's), without reading all 8,131. */
    locationsOf: (codes: readonly string[]) => repo.locationsOf(codes),
    /** The municipalities of a province (INE 01–52) or a community (01–19), or all of Spain, in code order. */
    inArea: (area: { provinceCode?: string; communityCode?: string }) => repo.inArea(area),
    /** Each municipality's point and altitude, for placing weather stations. */
    points: () => repo.points(),

    /** The municipality's names, or null when no municipality has the code. */
    async names(ineCode: string): Promise<MunicipalityNames | null> {
      const found = await repo.find(ineCode);
      return found && { name: found.name, province: found.province, community: found.community };
    },
  };
}

export type MunicipalitiesService = ReturnType<typeof createMunicipalitiesService>;
