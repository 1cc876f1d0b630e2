import { NotFoundError } from '../errors';
import { addDays, todayInSpain } from '../calendar';
import { municipalityNotFound, requireMunicipalityAllowed, type DataCaller } from '../municipalities/access';
import type { MunicipalitiesService, MunicipalityNames } from '../municipalities/service';
import { requireServedDay } from '../readings/date-range';
import type { Reading } from '../readings/reading';
import type { TProvenance } from '../readings/schemas';
import type { ReadingSource, ReadingsService } from '../readings/service';
import type { EcosystemService } from '../ecosystem/service';
import type { ForecastDaysAfter } from '../forecast/service';
import type { SeasonOnDay, SeasonsService } from '../seasons/service';
import type { SyntheticData } from '../synthetic/synthetic-data';
import { actionsFor } from './actions-table';
import { dangerClassRow, type DangerClassRow } from './danger-classes';
import { fireBehaviourOf, type FireBehaviour } from './fire-behaviour';
import { storedHistory, syntheticHistory, type FwiHistory } from './fwi-history';
import { measuresFor, seasonMeasures, type M3Measure } from './measures-table';
import { percentileOf, percentileWindows, sameDayIn, type PercentileBasis } from './percentile';
import { seasonRecord } from './season-record';
import type { TSeason } from './schemas';
import { SOURCES, type SourceRef } from './sources';
import { TREND_DAYS, trendOf, type Trend } from './trend';

export interface DecisionSupportDeps {
  readings: Pick<ReadingsService, 'latestStored' | 'storedRange' | 'storedFwiInWindows' | 'storedProvenance'>;
  municipalities: Pick<MunicipalitiesService, 'find'>;
  seasons: Pick<SeasonsService, 'seasonOn'>;
  ecosystem: Pick<EcosystemService, 'profile'>;
  synthetic: SyntheticData;
  clock: () => Date;
  /** The forecast days after a day (the forecast service); without it m3 has no `forecast` section. */
  forecastDays?: ForecastDaysAfter;
}

/** Everything m3 and framing say about one municipality-day, before it is rendered. */
export interface Assessment {
  municipioId: string;
  municipality: MunicipalityNames;
  date: string;
  reading: Reading;
  source: ReadingSource;
  /** Where an observed reading's weather came from (AEMET stations), or null. */
  provenance: TProvenance | null;
  dangerClass: DangerClassRow;
  percentile: number | null;
  percentileBasis: PercentileBasis;
  /** The highest FWI of the percentile sample, or null when it is empty. */
  historyMax: { date: string; fwi: number } | null;
  /** The FWI of the same day a year earlier, when available. */
  lastYear: { date: string; fwi: number } | null;
  trend: Trend;
  /** The época de peligro of the municipality's community around the day; null when the table has no row for it. */
  season: TSeason | null;
  /** Expected head-fire behaviour in the municipality's dominant fuel; null when no ecosystem data is loaded (live tokens). */
  fireBehaviour: (FireBehaviour & { vegetationType: string }) | null;
  measures: M3Measure[];
  actions: ReturnType<typeof actionsFor>;
  sources: SourceRef[];
}

/**
 * Preventive decision support (m3): one day's FWI put in context (EFFIS class, the
 * municipality's own percentile, the 3-day trend) and the measures and actions the
 * tables attach to its class.
 */
export function createDecisionSupportService(deps: DecisionSupportDeps) {
  const stored = storedHistory(deps.readings);
  const synthetic = syntheticHistory(deps.synthetic);

  /** The municipality's ecosystem (test tokens: the synthetic one), or null when none is loaded. */
  async function ecosystemOf(caller: DataCaller, municipioId: string) {
    try {
      return await deps.ecosystem.profile(caller, municipioId);
    } catch (err) {
      if (err instanceof NotFoundError && err.code === 'ECOSYSTEM_NOT_FOUND') return null;
      throw err;
    }
  }

  return {
    async assess(caller: DataCaller, municipioId: string, query: { date?: string }): Promise<Assessment> {
      requireMunicipalityAllowed(caller, municipioId);
      const today = todayInSpain(deps.clock());
      if (query.date !== undefined) requireServedDay('date', query.date, today);
      const found = await deps.municipalities.find(municipioId);
      if (!found) throw municipalityNotFound(municipioId);
      const municipality: MunicipalityNames = { name: found.name, province: found.province, community: found.community };
      const history: FwiHistory = caller.type === 'test' ? synthetic : stored;
      const date = query.date ?? (caller.type === 'test' ? today : (await deps.readings.latestStored(municipioId))?.date);
      if (date === undefined) throw noReading(municipioId, null);

      const recent = await history.range(municipioId, addDays(date, -(TREND_DAYS - 1)), date);
      const reading = recent.find((r) => r.date === date);
      if (!reading) throw noReading(municipioId, date);
      const sample = await history.fwiInWindows(municipioId, percentileWindows(date, today));
      const { percentile, basis } = percentileOf(reading.fwi, sample);
      const dangerClass = dangerClassRow(reading.fwi);
      const lastYearDate = sameDayIn(date, Number(date.slice(0, 4)) - 1);
      const [season, ecosystem, provenance] = await Promise.all([
        deps.seasons.seasonOn(found.communityCode, date),
        ecosystemOf(caller, municipioId),
        caller.type === 'test' ? null : deps.readings.storedProvenance(municipioId, date),
      ]);
      const historyMax = sample.reduce<{ date: string; fwi: number } | null>((max, d) => (max === null || d.fwi > max.fwi ? d : max), null);
      return {
        municipioId,
        municipality,
        date,
        reading,
        source: history.source,
        provenance,
        dangerClass,
        percentile,
        percentileBasis: basis,
        historyMax,
        lastYear: sample.find((d) => d.date === lastYearDate) ?? null,
        trend: trendOf(recent),
        season: season && seasonRecord(season),
        fireBehaviour: ecosystem && { ...fireBehaviourOf(reading.isi, reading.bui, ecosystem), vegetationType: ecosystem.vegetationType },
        measures: [...measuresFor(dangerClass.code), ...(season?.inForce ? seasonMeasures(season) : [])],
        actions: actionsFor(dangerClass.code),
        sources: usedSources(history.source, season, ecosystem !== null),
      };
    },

    /** The forecast days after `date` (m3's `forecast` section), as `GET /api/v3/m1/forecast` answers the caller; none without a forecast. */
    forecastAfter: (caller: DataCaller, municipioId: string, date: string) => (deps.forecastDays ? deps.forecastDays(caller, municipioId, date) : Promise.resolve([])),
  };
}

function usedSources(source: ReadingSource, season: SeasonOnDay | null, fireBehaviour: boolean): SourceRef[] {
  const ids = [source === 'synthetic' ? 'synthetic' : 'readings', 'cffdrs', 'effis', 'aemet', 'nfdrs', 'ley_montes', 'miteco_prevention', 'ifpl', 'afdrs', 'seasons'] as const;
  const refs: SourceRef[] = ids.map((id) => SOURCES[id]);
  if (fireBehaviour) refs.push(SOURCES.fbp);
  // The regional order or plan behind the season, as the table cites it.
  if (season?.sourceUrl) refs.push({ id: `season_${season.communityCode}`, name: season.sourceTitle, url: season.sourceUrl });
  return refs;
}

function noReading(municipioId: string, date: string | null): NotFoundError {
  const message = date === null ? `No reading is stored for municipality ${municipioId} yet` : `No reading is stored for municipality ${municipioId} on ${date}`;
  return new NotFoundError(message, 'READING_NOT_FOUND', { param: date === null ? 'municipio_id' : 'date' });
}

export type DecisionSupportService = ReturnType<typeof createDecisionSupportService>;
