import { localNoonHour } from '../aemet/forecast-noon';
import { addDays, daysBetween, todayInSpain } from '../calendar';
import { dangerClass } from '../decision-support/danger-classes';
import { NotFoundError } from '../errors';
import { OUTPUT_DECIMALS } from '../fwi';
import { municipalityNotFound, requireMunicipalityAllowed, type DataCaller } from '../municipalities/access';
import type { MunicipalitiesService } from '../municipalities/service';
import { riskLabel, riskScore } from '../risk/risk-score';
import type { SyntheticData } from '../synthetic/synthetic-data';
import type { ForecastRepository } from './repository';
import type { TForecastDay, TForecastResponse } from './schemas';

const round = (x: number, decimals: number) => Number(x.toFixed(decimals));

/** 00:00 of a Spanish (peninsular) day as an ISO instant: 22:00 or 23:00 UTC the day before. */
function startOfDayInSpain(day: string): string {
  const offsetHours = localNoonHour(day, false) - 11;
  return new Date(Date.parse(`${day}T00:00:00Z`) - offsetHours * 3_600_000).toISOString();
}

function dayBody(issuedOn: string, d: { date: string; fwi: number; temp: number; rh: number; ws: number; prec: number }) {
  return {
    date: d.date,
    lead_days: daysBetween(issuedOn, d.date),
    risk_score: round(riskScore(d.fwi), 6),
    risk_label: riskLabel(d.fwi),
    fwi: round(d.fwi, OUTPUT_DECIMALS),
    danger_class: dangerClass(d.fwi),
    temp: d.temp,
    rh: d.rh,
    ws: d.ws,
    prec: d.prec,
  };
}

/**
 * The forecast days after `date`, as `GET /api/v3/m1/forecast` answers them to the caller
 * (lead days counted from the forecast's issue day); none when no forecast is stored. m3 and
 * framing take their `forecast` section from it.
 */
export type ForecastDaysAfter = (caller: DataCaller, municipioId: string, date: string) => Promise<readonly TForecastDay[]>;

/** `GET /api/v3/m1/forecast`: the stored AEMET forecast for live tokens, the synthetic model's next six days for test tokens. */
export function createForecastService(deps: {
  repo: Pick<ForecastRepository, 'days'>;
  municipalities: Pick<MunicipalitiesService, 'exists'>;
  synthetic: SyntheticData;
  clock: () => Date;
}) {
  const service = {
    async forecast(caller: DataCaller, municipioId: string): Promise<TForecastResponse> {
      requireMunicipalityAllowed(caller, municipioId);
      if (!(await deps.municipalities.exists(municipioId))) throw municipalityNotFound(municipioId);
      if (caller.type === 'test') {
        const today = todayInSpain(deps.clock());
        const days = deps.synthetic.readings(municipioId, addDays(today, 1), addDays(today, 6));
        return { municipio_id: municipioId, issued_at: startOfDayInSpain(today), source: 'synthetic', days: days.map((d) => dayBody(today, d)) };
      }
      const rows = await deps.repo.days(municipioId);
      if (rows.length === 0) throw new NotFoundError(`No forecast is stored for municipality ${municipioId}`, 'FORECAST_NOT_AVAILABLE', { param: 'municipio_id' });
      return {
        municipio_id: municipioId,
        issued_at: new Date(rows[0]!.issuedAt).toISOString(),
        source: 'aemet_forecast',
        days: rows.map((r) => dayBody(r.issuedOn, r)),
      };
    },

    /** The days of `forecast` after `date`; none, not an error, when no forecast is stored. */
    async daysAfter(caller: DataCaller, municipioId: string, date: string): Promise<readonly TForecastDay[]> {
      try {
        return (await service.forecast(caller, municipioId)).days.filter((d) => d.date > date);
      } catch (err) {
        if (err instanceof NotFoundError && err.code === 'FORECAST_NOT_AVAILABLE') return [];
        throw err;
      }
    },

    /**
     * framing's days: those of `daysAfter` that are still ahead of today in Spain, with lead
     * days counted from today, so "tomorrow" in the text is the reader's tomorrow even when
     * the stored forecast was issued on an earlier day (before the day's run).
     */
    async daysAheadOfToday(caller: DataCaller, municipioId: string, date: string): Promise<readonly TForecastDay[]> {
      const today = todayInSpain(deps.clock());
      const days = await service.daysAfter(caller, municipioId, date);
      return days.filter((d) => d.date > today).map((d) => ({ ...d, lead_days: daysBetween(today, d.date) }));
    },
  };
  return service;
}

export type ForecastService = ReturnType<typeof createForecastService>;
