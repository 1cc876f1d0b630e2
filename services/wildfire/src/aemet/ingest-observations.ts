/**
 * Observed weather from AEMET, polled and ingested:
 *  1. the station inventory, cached in `aemet_stations` and fetched again when older
 *     than `inventoryTtlMs` (a failed refresh keeps the cached one);
 *  2. the conventional observations (about the last 24 h), stored hour by hour in
 *     `aemet_station_hours`, so polls add up to the 24 hours a day's precipitation needs;
 *  3. each day whose noon is INGEST_AFTER_NOON_HOURS behind us and that is not ingested
 *     yet (yesterday and today; `--date D` names one and ingests it again): per station
 *     the noon inputs (observations.ts), per municipality the weighted values
 *     (interpolate.ts), then the readings through the weather ingestion, all or nothing,
 *     with each reading's provenance and the day's record in the same transaction.
 * A municipality without coordinates or with no station in range gets no reading that day:
 * it is counted and logged, never filled from another.
 */
import type pg from 'pg';
import type { LockedRun, Logger } from '@firma-riesgo/service-kit';
import { addDays, todayInSpain } from '../calendar';
import type { MunicipalitiesService } from '../municipalities/service';
import type { WeatherIngestSummary } from '../readings/ingest-weather';
import { WeatherColumns } from '../readings/weather-columns';
import type { AemetClient } from './client';
import { interpolateNoon, type NoonStation, type Provenance } from './interpolate';
import { noonInstant, parseObservations, stationNoon, type HourlyObservation, type StationGap } from './observations';
import type { AemetRepository } from './repository';
import { parseInventory, type Station } from './stations';

export const OBSERVATIONS_PATH = 'observacion/convencional/todas';
export const INVENTORY_PATH = 'valores/climatologicos/inventarioestaciones/todasestaciones';
/** A day is ingested this long after its latest noon (the Canaries', 12 UTC), leaving AEMET time to publish the hour. */
export const INGEST_AFTER_NOON_HOURS = 2;
/** Hours older than this are deleted from `aemet_station_hours`. */
export const HOURS_KEPT_DAYS = 10;
const HOUR_MS = 3_600_000;
/** Codes listed in the log and the summary when municipalities get no reading. */
const SAMPLE = 20;

export interface ObservedDayResult {
  date: string;
  /** Stations with all four noon inputs. */
  stations: number;
  /** Stations that had hours but gave no noon inputs, by reason. */
  station_gaps: Record<StationGap, number>;
  municipalities: number;
  without_station: number;
  without_coordinates: number;
  /** Up to 20 INE codes of municipalities with no station in range. */
  without_station_sample: string[];
  readings: Pick<WeatherIngestSummary, 'inserted' | 'updated' | 'unchanged' | 'computed'> | null;
}

export interface ObservationsRunResult {
  hours_stored: number;
  implausible: { ta: number; hr: number; vv: number; prec: number };
  days: ObservedDayResult[];
}

export interface AemetObservationsDeps {
  client: Pick<AemetClient, 'fetchProduct'>;
  repo: Pick<AemetRepository, 'stations' | 'replaceStations' | 'storeHours' | 'hoursBetween' | 'pruneHoursBefore' | 'observedDays' | 'recordDay'>;
  municipalities: Pick<MunicipalitiesService, 'points' | 'locations'>;
  ingestColumns: (weather: WeatherColumns, known: undefined, alongside: (tx: pg.ClientBase) => Promise<void>) => Promise<WeatherIngestSummary>;
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
  clock: () => Date;
  logger: Logger;
  inventoryTtlMs?: number;
}

/** Whether `date`'s noon (the latest in Spain, the Canaries') is INGEST_AFTER_NOON_HOURS behind `now`. */
export function noonHasPassed(date: string, now: Date): boolean {
  return now.getTime() >= noonInstant(date, 28) + INGEST_AFTER_NOON_HOURS * HOUR_MS;
}

export function createAemetObservations(deps: AemetObservationsDeps) {
  const { repo, logger } = deps;
  const inventoryTtlMs = deps.inventoryTtlMs ?? 7 * 24 * HOUR_MS;

  async function inventory(): Promise<Map<string, Station>> {
    const cached = await repo.stations();
    const now = deps.clock();
    if (cached.fetchedAt && now.getTime() - cached.fetchedAt.getTime() < inventoryTtlMs) return new Map(cached.stations.map((s) => [s.id, s]));
    try {
      const data = await deps.client.fetchProduct(INVENTORY_PATH);
      if (data === null) throw new Error('AEMET has no station inventory (estado 404)');
      const { stations, skipped } = parseInventory(data);
      await repo.replaceStations(stations, now);
      logger.info({ stations: stations.length, skipped }, 'AEMET OpenData: station inventory refreshed');
      return new Map(stations.map((s) => [s.id, s]));
    } catch (err) {
      if (cached.stations.length === 0) throw err;
      logger.warn({ err: (err as Error).message }, 'AEMET OpenData: could not refresh the station inventory; using the cached one');
      return new Map(cached.stations.map((s) => [s.id, s]));
    }
  }

  function noonStations(hours: readonly HourlyObservation[], stations: ReadonlyMap<string, Station>, date: string) {
    const byStation = new Map<string, HourlyObservation[]>();
    for (const h of hours) {
      const rows = byStation.get(h.idema);
      if (rows) rows.push(h);
      else byStation.set(h.idema, [h]);
    }
    const usable: NoonStation[] = [];
    const gaps: Record<StationGap, number> = { no_noon_observation: 0, missing_noon_value: 0, incomplete_precipitation: 0 };
    for (const [id, rows] of byStation) {
      const known = stations.get(id);
      const last = rows[rows.length - 1]!;
      // The inventory places the station; an observation's own lat/lon/alt serve for one the inventory lacks.
      const lat = known?.lat ?? last.lat;
      const lon = known?.lon ?? last.lon;
      if (lat === null || lon === null) continue;
      const noon = stationNoon(rows, date, lat);
      if (typeof noon === 'string') gaps[noon]++;
      else usable.push({ id, lat, lon, altitudeM: known?.altitudeM ?? last.alt, ...noon });
    }
    return { usable, gaps };
  }

  async function ingestDay(date: string, stations: ReadonlyMap<string, Station>): Promise<ObservedDayResult> {
    // From the day before's earliest noon (11 UTC) to this day's latest (12 UTC).
    const hours = await repo.hoursBetween(noonInstant(addDays(date, -1), 40), noonInstant(date, 28));
    const { usable, gaps } = noonStations(hours, stations, date);
    const empty: ObservedDayResult = {
      date,
      stations: 0,
      station_gaps: gaps,
      municipalities: 0,
      without_station: 0,
      without_coordinates: 0,
      without_station_sample: [],
      readings: null,
    };
    // No station has the day's noon inputs (the hours are not polled yet): nothing to place.
    if (usable.length === 0) return empty;
    const points = await deps.municipalities.points();
    const weather = new WeatherColumns(points.length);
    const provenance = new Map<string, Provenance>();
    const withoutStation: string[] = [];
    let withoutCoordinates = 0;
    for (const p of points.sort((a, b) => (a.ineCode < b.ineCode ? -1 : 1))) {
      if (p.lat === null || p.lon === null) {
        withoutCoordinates++;
        continue;
      }
      const noon = interpolateNoon({ lat: p.lat, lon: p.lon, altitudeM: p.altitudeM }, usable);
      if (!noon) {
        withoutStation.push(p.ineCode);
        continue;
      }
      weather.push(p.ineCode, date, weather.length + 2, noon.temp, noon.rh, noon.ws, noon.prec);
      provenance.set(p.ineCode, noon.provenance);
    }
    const result: ObservedDayResult = {
      date,
      stations: usable.length,
      station_gaps: gaps,
      municipalities: weather.length,
      without_station: withoutStation.length,
      without_coordinates: withoutCoordinates,
      without_station_sample: withoutStation.slice(0, SAMPLE),
      readings: null,
    };
    if (withoutStation.length > 0 || withoutCoordinates > 0) {
      logger.warn({ date, without_station: withoutStation.length, without_coordinates: withoutCoordinates, sample: result.without_station_sample }, 'AEMET observations: municipalities without a reading');
    }
    if (weather.length === 0) return result;
    const summary = { date, stations: usable.length, municipalities: weather.length, withoutStation: withoutStation.length };
    const ingested = await deps.ingestColumns(weather, undefined, (tx) => repo.recordDay(tx, summary, provenance, deps.clock()));
    result.readings = { inserted: ingested.inserted, updated: ingested.updated, unchanged: ingested.unchanged, computed: ingested.computed };
    logger.info({ date, stations: usable.length, municipalities: weather.length, ...result.readings }, 'AEMET observations: day ingested');
    return result;
  }

  /** One poll: store the latest hours, then ingest the due days (or `date` alone). Throws on a date whose noon has not passed. */
  async function run(options: { date?: string } = {}): Promise<ObservationsRunResult> {
    const now = deps.clock();
    if (options.date !== undefined && !noonHasPassed(options.date, now)) {
      throw new RangeError(`${options.date}: its noon observations are not complete yet (a day is ingested from ${INGEST_AFTER_NOON_HOURS} h after noon in the Canaries)`);
    }
    const stations = await inventory();
    const data = await deps.client.fetchProduct(OBSERVATIONS_PATH);
    const parsed = data === null ? { rows: [], skipped: 0, implausible: { ta: 0, hr: 0, vv: 0, prec: 0 } } : parseObservations(data);
    const hoursStored = parsed.rows.length > 0 ? await repo.storeHours(parsed.rows) : 0;
    if (parsed.skipped > 0) logger.warn({ skipped: parsed.skipped }, 'AEMET observations: records without a station or a time were skipped');
    const today = todayInSpain(now);
    let due: string[];
    if (options.date !== undefined) due = [options.date];
    else {
      const done = await repo.observedDays(addDays(today, -1), today);
      due = [addDays(today, -1), today].filter((d) => !done.has(d) && noonHasPassed(d, now));
    }
    const days: ObservedDayResult[] = [];
    for (const date of due) {
      const day = await ingestDay(date, stations);
      // A polled day without any station's noon inputs is tried again at the next poll, silently.
      if (day.stations > 0 || options.date !== undefined) days.push(day);
    }
    await repo.pruneHoursBefore(now.getTime() - HOURS_KEPT_DAYS * 24 * HOUR_MS);
    return { hours_stored: hoursStored, implausible: parsed.implausible, days };
  }

  return {
    run,
    /** The repeatable job's run: skipped while another instance polls. */
    async poll(): Promise<ObservationsRunResult | null> {
      const locked = await deps.exclusive('wildfire:aemet-observations', () => run());
      return locked.ran ? locked.value : null;
    },
  };
}

export type AemetObservations = ReturnType<typeof createAemetObservations>;
