import { NotFoundError } from '../errors';
import { todayInSpain } from '../calendar';
import { municipalityNotFound, requireMunicipalityAllowed, type DataCaller } from '../municipalities/access';
import type { MunicipalitiesService } from '../municipalities/service';
import type { SyntheticData } from '../synthetic/synthetic-data';
import { resolveDateRange, type DateRange } from './date-range';
import type { Reading } from './reading';
import type { LatestReadingCache, LatestStored } from './latest-cache';
import type { ReadingsRepository } from './repository';
import type { TProvenance } from './schemas';

export interface ReadingsServiceDeps {
  repo: Pick<ReadingsRepository, 'latest' | 'range' | 'fwiInWindows' | 'onDay' | 'territoryDay' | 'dayChangedAt' | 'newestDay'>;
  municipalities: Pick<MunicipalitiesService, 'exists'>;
  synthetic: SyntheticData;
  clock: () => Date;
  /** Where stored readings' weather came from (AEMET observations), by date; absent: none is kept. */
  provenance?: (municipioId: string, from: string, to: string) => Promise<ReadonlyMap<string, TProvenance>>;
  /** This instance's latest-reading cache (API with Redis); absent: every m1 reads Postgres. */
  latestCache?: LatestReadingCache;
}

const NO_PROVENANCE: ReadonlyMap<string, TProvenance> = new Map();

export type ReadingSource = 'observed' | 'synthetic';

/**
 * Daily risk readings. Live tokens read what ingestion stored; test tokens read the
 * synthetic model and never the readings table, so the two can never mix.
 */
export function createReadingsService(deps: ReadingsServiceDeps) {
  const { repo, synthetic } = deps;

  const provenanceOf = (municipioId: string, from: string, to: string) => (deps.provenance ? deps.provenance(municipioId, from, to) : Promise.resolve(NO_PROVENANCE));

  async function requireKnown(municipioId: string): Promise<void> {
    if (!(await deps.municipalities.exists(municipioId))) throw municipalityNotFound(municipioId);
  }

  /**
   * The latest stored reading with its provenance, from this instance's cache when it has
   * it, else Postgres (and then cached, unless a change was heard meanwhile). Throws
   * MUNICIPALITY_NOT_FOUND for an unknown code, which is never cached.
   */
  async function storedLatest(municipioId: string): Promise<LatestStored> {
    const cached = deps.latestCache?.get(municipioId);
    if (cached) return cached.entry;
    const generation = deps.latestCache?.generation ?? 0;
    // One query when a reading is stored: a reading's municipality exists (checked by ingestion, kept by a trigger: readings/tables.ts).
    const reading = await repo.latest(municipioId);
    let entry: LatestStored = null;
    if (reading) entry = { reading, provenance: (await provenanceOf(municipioId, reading.date, reading.date)).get(reading.date) };
    else await requireKnown(municipioId);
    deps.latestCache?.set(municipioId, { entry }, generation);
    return entry;
  }

  return {
    /** The newest reading: today's for test tokens, the last stored day for live ones. */
    async latest(caller: DataCaller, municipioId: string): Promise<{ reading: Reading; source: ReadingSource; provenance?: TProvenance }> {
      requireMunicipalityAllowed(caller, municipioId);
      if (caller.type === 'test') {
        await requireKnown(municipioId);
        const today = todayInSpain(deps.clock());
        return { reading: synthetic.readings(municipioId, today, today)[0]!, source: 'synthetic' };
      }
      const stored = await storedLatest(municipioId);
      if (stored) return { reading: stored.reading, source: 'observed', provenance: stored.provenance };
      throw new NotFoundError(`No reading is stored for municipality ${municipioId} yet`, 'READING_NOT_FOUND', { param: 'municipio_id' });
    },

    /** Readings of a date range, in date order; days without a stored reading are absent. */
    async range(
      caller: DataCaller,
      municipioId: string,
      query: { date_from?: string; date_to?: string },
    ): Promise<{ range: DateRange; readings: Reading[]; source: ReadingSource; provenance: ReadonlyMap<string, TProvenance> }> {
      requireMunicipalityAllowed(caller, municipioId);
      const range = resolveDateRange(query, todayInSpain(deps.clock()));
      await requireKnown(municipioId);
      if (caller.type === 'test') return { range, readings: synthetic.readings(municipioId, range.from, range.to), source: 'synthetic', provenance: NO_PROVENANCE };
      const [readings, provenance] = await Promise.all([repo.range(municipioId, range.from, range.to), provenanceOf(municipioId, range.from, range.to)]);
      return { range, readings, source: 'observed', provenance };
    },

    /** For other features: the latest stored reading of a municipality, or null; no caller, no access rules. */
    latestStored: (municipioId: string): Promise<Reading | null> => repo.latest(municipioId),

    /** For other features: stored readings from `from` to `to`, in date order; no access rules. */
    storedRange: (municipioId: string, from: string, to: string): Promise<Reading[]> => repo.range(municipioId, from, to),

    /** For other features: every municipality's stored reading of `date` with its place, in INE code order; no access rules. */
    /** For other features (the alerts): the stored readings of `date` of these municipalities; no access rules. */
    storedOnDay: (codes: readonly string[], date: string) => repo.onDay(codes, date),
    storedTerritoryDay: (date: string) => repo.territoryDay(date),
    /**
     * How many reading changes this instance's cache has heard (ingestions anywhere, a
     * resubscription): what is derived from stored readings may be kept under it. Always 0
     * without the cache (no Redis: no change can be heard).
     */
    changesHeard: (): number => deps.latestCache?.generation ?? 0,

    /** For other features: when the readings of `date` last changed, or null; and the newest loaded day up to a day. */
    dayChangedAt: (date: string) => repo.dayChangedAt(date),
    newestStoredDay: (upTo: string) => repo.newestDay(upTo),
    /** For other features: where a stored reading's weather came from, or null (not built from AEMET observations). */
    storedProvenance: async (municipioId: string, date: string): Promise<TProvenance | null> => (await provenanceOf(municipioId, date, date)).get(date) ?? null,

    /** For other features: the stored FWI of each day inside the windows, in date order; no access rules. */
    storedFwiInWindows: (municipioId: string, windows: readonly DateRange[]) => repo.fwiInWindows(municipioId, windows),
  };
}

export type ReadingsService = ReturnType<typeof createReadingsService>;
