/**
 * AEMET's municipal forecast into six days of risk per municipality.
 *
 * For each municipality (INE codes in order; all of them, or the listed ones):
 *  1. its latest observed reading: the FWI codes the forecast chains from (none: no forecast);
 *  2. the daily forecast (D+0…D+6) and the hourly one (precipitation amounts, about 48 h);
 *  3. noon inputs by the rules of forecast-noon.ts, then the FWI System day by day from the
 *     observed codes through every forecast day after the last observed one (D+0 included
 *     when today is not observed yet), a gap of more than MAX_CARRY_GAP_DAYS ending the chain;
 *  4. days D+1…D+6 replace the municipality's stored forecast, in one transaction with the
 *     run's cursor and the automatic decisions of its forecast days (decisions/forecast-decisions.ts).
 * A full run is one per Spanish day (`forecast_runs`): stopped for any reason (AEMET failing
 * after its retries, a restart), the next run that day resumes after the cursor, so nothing
 * is fetched or written twice and no municipality is left half-written. Requests are paced
 * to `requestsPerMinute` (4 per municipality), and progress is logged every 100 municipalities.
 */
import type { LockedRun, Logger } from '@firma-riesgo/service-kit';
import { daysBetween, monthOf, todayInSpain } from '../calendar';
import type { ForecastDayRow, ForecastRepository, ForecastTransaction } from '../forecast/repository';
import { step, type FwiCodes } from '../fwi';
import type { MunicipalitiesService } from '../municipalities/service';
import { provinceOf } from '../municipalities/provinces';
import { MAX_CARRY_GAP_DAYS } from '../readings/compute-readings';
import type { ReadingsService } from '../readings/service';
import type { AemetClient } from './client';
import { forecastNoons, localNoonHour } from './forecast-noon';

export const dailyForecastPath = (ine: string) => `prediccion/especifica/municipio/diaria/${ine}`;
export const hourlyForecastPath = (ine: string) => `prediccion/especifica/municipio/horaria/${ine}`;
const REQUESTS_PER_MUNICIPALITY = 4;
const PROGRESS_EVERY = 100;
const LEAD_DAYS = 6;

export interface ForecastRunResult {
  issued_on: string;
  /** Municipalities in the run; `resumed_after` is the cursor a resumed run started from. */
  total: number;
  resumed_after: string | null;
  processed: number;
  written: number;
  without_observation: number;
  without_forecast: number;
  /** True when the day's full run had finished already: nothing was done. */
  already_done: boolean;
}

export interface AemetForecastDeps {
  client: Pick<AemetClient, 'fetchProduct'>;
  repo: Pick<ForecastRepository, 'startRun' | 'finishRun' | 'replace'>;
  readings: Pick<ReadingsService, 'latestStored'>;
  municipalities: Pick<MunicipalitiesService, 'locations'>;
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
  clock: () => Date;
  logger: Logger;
  sleep: (ms: number) => Promise<void>;
  requestsPerMinute: number;
  /** Runs after a municipality's forecast days are written (the alerts). */
  afterWrite?: (municipioId: string, rows: readonly Omit<ForecastDayRow, 'municipioId'>[]) => Promise<unknown>;
  /** Replaces the municipality's automatic decisions of forecast days with the runs of `days`, on the forecast's transaction. */
  forecastDecisions: (tx: ForecastTransaction, municipioId: string, days: readonly { date: string; fwi: number }[]) => Promise<unknown>;
}

/** AEMET's `elaborado` is official Spanish (peninsular) time without a zone. */
function issuedInstant(elaborado: string | null, fallback: Date): string {
  const match = elaborado && /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(elaborado);
  if (!match) return fallback.toISOString();
  const offsetHours = localNoonHour(match[1]!, false) - 11;
  return new Date(Date.parse(`${match[1]}T${match[2]}Z`) - offsetHours * 3_600_000).toISOString();
}

export function createAemetForecast(deps: AemetForecastDeps) {
  const { logger } = deps;
  const paceMs = Math.ceil((REQUESTS_PER_MUNICIPALITY * 60_000) / deps.requestsPerMinute);

  /** One municipality's stored rows, or why it has none. */
  async function forecastOf(code: string, lat: number, today: string, now: Date) {
    const last = await deps.readings.latestStored(code);
    if (!last) return 'without_observation' as const;
    const daily = await deps.client.fetchProduct(dailyForecastPath(code));
    if (daily === null) return 'without_forecast' as const;
    const hourly = await deps.client.fetchProduct(hourlyForecastPath(code));
    const canary = code.startsWith('35') || code.startsWith('38');
    const { issuedAt, noons } = forecastNoons(daily, hourly, canary);
    const issued = issuedInstant(issuedAt, now);
    let state: FwiCodes = { ffmc: last.ffmc, dmc: last.dmc, dc: last.dc };
    let lastDate = last.date;
    const rows = [];
    for (const noon of noons) {
      if (noon.date <= lastDate) continue;
      if (daysBetween(lastDate, noon.date) - 1 > MAX_CARRY_GAP_DAYS) break;
      const day = step(state, noon, lat, monthOf(noon.date));
      state = day;
      lastDate = noon.date;
      const lead = daysBetween(today, noon.date);
      if (lead >= 1 && lead <= LEAD_DAYS) {
        rows.push({ date: noon.date, issuedAt: issued, issuedOn: today, leadDays: lead, temp: noon.temp, rh: noon.rh, ws: noon.ws, prec: noon.prec, precFrom: noon.precFrom, ...day });
      }
    }
    return rows;
  }

  async function run(options: { municipios?: readonly string[] } = {}): Promise<ForecastRunResult> {
    const now = deps.clock();
    const today = todayInSpain(now);
    const locations = await deps.municipalities.locations();
    const listed = options.municipios !== undefined;
    if (listed) {
      const unknown = options.municipios!.filter((c) => !locations.has(c));
      if (unknown.length > 0) throw new RangeError(`unknown municipalities: ${unknown.join(', ')}`);
    }
    let codes = [...new Set(listed ? options.municipios! : locations.keys())].sort();
    const result: ForecastRunResult = { issued_on: today, total: codes.length, resumed_after: null, processed: 0, written: 0, without_observation: 0, without_forecast: 0, already_done: false };
    if (!listed) {
      const dayRun = await deps.repo.startRun(today, codes.length, now);
      if (dayRun.finishedAt) return { ...result, already_done: true };
      result.resumed_after = dayRun.cursor;
      if (dayRun.cursor) codes = codes.filter((c) => c > dayRun.cursor!);
    }
    for (const code of codes) {
      const lat = locations.get(code)!.lat ?? provinceOf(code)!.lat;
      const rows = await forecastOf(code, lat, today, now);
      result.processed++;
      // Nothing observed, nothing to chain from: no request was made and nothing is written (a resumed run checks it again).
      if (rows === 'without_observation') {
        result.without_observation++;
        continue;
      }
      if (rows === 'without_forecast') result.without_forecast++;
      else result.written += rows.length > 0 ? 1 : 0;
      const days = Array.isArray(rows) ? rows : [];
      await deps.repo.replace(code, days, listed ? null : { issuedOn: today, cursor: code }, (tx) => deps.forecastDecisions(tx, code, days));
      if (Array.isArray(rows)) await deps.afterWrite?.(code, rows);
      if (result.processed % PROGRESS_EVERY === 0) logger.info({ issued_on: today, processed: result.processed, of: codes.length, written: result.written }, 'AEMET forecast: progress');
      await deps.sleep(paceMs);
    }
    if (!listed) await deps.repo.finishRun(today, deps.clock());
    logger.info(result, 'AEMET forecast: run finished');
    return result;
  }

  return {
    run,
    /** The daily job's run: skipped while another instance runs it. */
    async daily(): Promise<ForecastRunResult | null> {
      const locked = await deps.exclusive('wildfire:aemet-forecast', () => run());
      return locked.ran ? locked.value : null;
    },
  };
}

export type AemetForecast = ReturnType<typeof createAemetForecast>;
