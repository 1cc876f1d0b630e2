import { UnprocessableError } from '../errors';
import { todayInSpain } from '../calendar';
import { dangerClass, type DangerClass } from '../decision-support/danger-classes';
import { storedHistory, syntheticHistory } from '../decision-support/fwi-history';
import { municipalityNotFound, requireMunicipalityAllowed, type DataCaller } from '../municipalities/access';
import type { MunicipalitiesService } from '../municipalities/service';
import { EARLIEST_DATE, requireServedDay } from '../readings/date-range';
import type { ReadingsService } from '../readings/service';
import type { ForecastDaysAfter } from '../forecast/service';
import type { SyntheticData } from '../synthetic/synthetic-data';
import { syntheticAutomaticDecisions } from './automatic-decisions';
import { syntheticForecastDecisions } from './forecast-decisions';
import type { DecisionsRepository, StoredDecision } from './repository';
import { DEFAULT_DECISIONS_LIMIT, type TDecisionsQuery, type TDecisionsResponse } from './schemas';
import { scopesOf, type ScopeLevel } from './scope';

export interface DecisionsServiceDeps {
  repo: Pick<DecisionsRepository, 'list'>;
  municipalities: Pick<MunicipalitiesService, 'find'>;
  readings: Pick<ReadingsService, 'storedRange' | 'storedFwiInWindows'>;
  synthetic: SyntheticData;
  clock: () => Date;
  /** The caller's forecast days after a date (forecast/service.ts `daysAfter`): the class of a forecast decision's first day. */
  forecastDays: ForecastDaysAfter;
}

/** The territorial decision history of a municipality: its own decisions and those of its province, community and country. */
export function createDecisionsService(deps: DecisionsServiceDeps) {
  const stored = storedHistory(deps.readings);
  const synthetic = syntheticHistory(deps.synthetic);

  return {
    async history(caller: DataCaller, municipioId: string, query: Omit<TDecisionsQuery, 'municipio_id'>): Promise<TDecisionsResponse> {
      requireMunicipalityAllowed(caller, municipioId);
      const today = todayInSpain(deps.clock());
      if (query.date_from !== undefined) requireServedDay('date_from', query.date_from, today);
      if (query.date_to !== undefined) requireServedDay('date_to', query.date_to, today);
      if (query.date_from !== undefined && query.date_to !== undefined && query.date_from > query.date_to) {
        throw new UnprocessableError(`date_from ${query.date_from} is after date_to ${query.date_to}`, 'INVALID_DATE_RANGE', { param: 'date_from' });
      }
      const municipality = await deps.municipalities.find(municipioId);
      if (!municipality) throw municipalityNotFound(municipioId);
      const limit = query.limit ?? DEFAULT_DECISIONS_LIMIT;
      const offset = query.offset ?? 0;
      const scopes = scopesOf(municipality);
      let total: number;
      let rows: StoredDecision[];
      if (caller.type === 'test') {
        // Test tokens: the published (ingested) decisions and the automatic ones of the synthetic series, never the live ones.
        const stored = await deps.repo.list({ scopes, from: query.date_from, to: query.date_to, origins: ['ingested'], limit: offset + limit, offset: 0 });
        // Forecast runs start after today: only a history not bounded by date_to reaches them, as live tokens' stored ones.
        const synthetic = [
          ...syntheticAutomaticDecisions(deps.synthetic, municipioId, query.date_from ?? EARLIEST_DATE, query.date_to ?? today, today),
          ...(query.date_to === undefined ? syntheticForecastDecisions(deps.synthetic, municipioId, today) : []),
        ];
        total = stored.total + synthetic.length;
        rows = [...stored.rows, ...synthetic].sort(newestFirst).slice(offset, offset + limit);
      } else {
        ({ total, rows } = await deps.repo.list({ scopes, from: query.date_from, to: query.date_to, limit, offset }));
      }

      // The municipality's FWI on each first day, where the day has data (synthetic: 2015 to today).
      const days = [...new Set(rows.map((r) => r.date_from))].filter((d) => d >= EARLIEST_DATE && d <= today);
      const history = caller.type === 'test' ? synthetic : stored;
      const fwiOn = new Map((await history.fwiInWindows(municipioId, days.map((d) => ({ from: d, to: d })))).map((d) => [d.date, d.fwi]));
      // A forecast decision's first day is ahead of today: its class is the forecast's.
      const forecastClass = rows.some((r) => r.forecast)
        ? new Map((await deps.forecastDays(caller, municipioId, today)).map((d) => [d.date, d.danger_class]))
        : new Map<string, DangerClass>();

      const names: Record<ScopeLevel, string> = {
        municipality: municipality.name,
        province: municipality.province,
        community: municipality.community,
        national: 'España',
      };
      return {
        municipio_id: municipioId,
        total,
        limit,
        offset,
        data: rows.map((r) => {
          const fwi = fwiOn.get(r.date_from);
          return {
            decision_id: r.decision_id,
            type: r.type,
            title: r.title,
            scope: { level: r.scope_level, code: r.scope_code, name: names[r.scope_level] },
            date_from: r.date_from,
            date_to: r.date_to,
            measures: r.measures,
            legal_basis: r.legal_basis,
            source_url: r.source_url,
            origin: r.origin,
            forecast: r.forecast,
            danger_class: r.forecast ? (forecastClass.get(r.date_from) ?? null) : fwi === undefined ? null : dangerClass(fwi),
            created_at: r.created_at.toISOString(),
          };
        }),
      };
    },
  };
}

/** The order of `list`: latest date_from, then latest date_to (open-ended first), then id. */
function newestFirst(a: StoredDecision, b: StoredDecision): number {
  if (a.date_from !== b.date_from) return a.date_from > b.date_from ? -1 : 1;
  if (a.date_to !== b.date_to) return a.date_to === null ? -1 : b.date_to === null ? 1 : a.date_to > b.date_to ? -1 : 1;
  return a.decision_id < b.decision_id ? -1 : a.decision_id > b.decision_id ? 1 : 0;
}

export type DecisionsService = ReturnType<typeof createDecisionsService>;
