import type { DataCaller } from '../municipalities/access';
import type { DecisionSupportService } from '../decision-support/service';
import { framingOf, type ForecastDay, type Framing, type FramingLang } from './compose';
import type { Audience } from './templates-es';

export interface FramingDeps {
  decisionSupport: Pick<DecisionSupportService, 'assess'>;
  /**
   * The forecast days after `date` and after today for the municipality, from the forecast
   * `GET /api/v3/m1/forecast` answers the caller, lead days counted from today; none, and
   * no `forecast` section, when no forecast is stored.
   */
  forecastDays?: (caller: DataCaller, municipioId: string, date: string) => Promise<readonly ForecastDay[]>;
}

/** Narrative risk analysis: m3's assessment of the day, told from written templates. */
export function createFramingService(deps: FramingDeps) {
  return {
    async frame(caller: DataCaller, municipioId: string, query: { date?: string; audience?: Audience; lang?: FramingLang }): Promise<Framing> {
      const assessment = await deps.decisionSupport.assess(caller, municipioId, { date: query.date });
      const forecast = deps.forecastDays ? await deps.forecastDays(caller, municipioId, assessment.date) : [];
      return framingOf(assessment, query.audience ?? 'ciudadania', query.lang ?? 'es', forecast);
    },
  };
}

export type FramingService = ReturnType<typeof createFramingService>;
