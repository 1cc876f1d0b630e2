import { NotFoundError } from '../errors';
import { todayInSpain } from '../calendar';
import { municipalityNotFound, requireMunicipalityAllowed, type DataCaller } from '../municipalities/access';
import type { MunicipalitiesService, MunicipalityNames } from '../municipalities/service';
import type { Reading } from '../readings/reading';
import type { ReadingSource, ReadingsService } from '../readings/service';
import type { SyntheticData } from '../synthetic/synthetic-data';
import { sharplesFmi } from './fuel-moisture';
import type { EcosystemRepository } from './repository';
import { syntheticEcosystem, type EcosystemValues } from './synthetic-ecosystem';

export interface EcosystemServiceDeps {
  repo: Pick<EcosystemRepository, 'find'>;
  municipalities: Pick<MunicipalitiesService, 'names'>;
  /** The latest stored reading is where a live token's fuel moisture index comes from. */
  readings: Pick<ReadingsService, 'latestStored'>;
  synthetic: SyntheticData;
  clock: () => Date;
}

/** The noon weather of a municipality's latest reading: what its fuel moisture index comes from. */
export type LatestWeather = Pick<Reading, 'date' | 'temp' | 'rh'>;

/** The fuel moisture index with the noon weather it was computed from. */
export interface FuelMoisture extends LatestWeather {
  index: number;
}

/** Everything both ecosystem endpoints answer; each picks its fields. */
export interface EcosystemProfile extends EcosystemValues {
  municipioId: string;
  municipality: MunicipalityNames;
  /** null: no weather reading is stored for the municipality yet (live tokens). */
  fuelMoisture: FuelMoisture | null;
  /** When the stored values last changed; null for synthetic data. */
  updatedAt: Date | null;
  source: ReadingSource;
}

function fuelMoistureOf(weather: LatestWeather | null): FuelMoisture | null {
  return weather && { ...weather, index: sharplesFmi(weather.temp, weather.rh) };
}

/**
 * Ecosystem data per municipality. Live tokens read what `ingest ecosystem` stored,
 * with the fuel moisture index of the latest stored reading; test tokens read the
 * synthetic ecosystem with the fuel moisture index of today's synthetic weather, and
 * never the ecosystems or readings tables.
 */
export function createEcosystemService(deps: EcosystemServiceDeps) {
  const { repo } = deps;
  return {
    async profile(caller: DataCaller, municipioId: string): Promise<EcosystemProfile> {
      requireMunicipalityAllowed(caller, municipioId);
      if (caller.type === 'test') {
        const municipality = await deps.municipalities.names(municipioId);
        if (!municipality) throw municipalityNotFound(municipioId);
        const today = todayInSpain(deps.clock());
        const { date, temp, rh } = deps.synthetic.readings(municipioId, today, today)[0]!;
        return {
          municipioId,
          municipality,
          ...syntheticEcosystem(municipioId),
          fuelMoisture: fuelMoistureOf({ date, temp, rh }),
          updatedAt: null,
          source: 'synthetic',
        };
      }
      const [municipality, ecosystem, latest] = await Promise.all([
        deps.municipalities.names(municipioId),
        repo.find(municipioId),
        deps.readings.latestStored(municipioId),
      ]);
      if (!municipality) throw municipalityNotFound(municipioId);
      if (!ecosystem) {
        throw new NotFoundError(`No ecosystem data is stored for municipality ${municipioId} yet`, 'ECOSYSTEM_NOT_FOUND', { param: 'municipio_id' });
      }
      const { updatedAt, ...values } = ecosystem;
      return { municipioId, municipality, ...values, fuelMoisture: fuelMoistureOf(latest && { date: latest.date, temp: latest.temp, rh: latest.rh }), updatedAt, source: 'observed' };
    },
  };
}

export type EcosystemService = ReturnType<typeof createEcosystemService>;
