/**
 * Daily FWI System calculation over a weather series, carrying the three moisture
 * codes from one day to the next as cffdrs's `fwi(batch = TRUE)` does.
 *
 * The codes are bookkeeping of water in and out of the fuel layers and assume one
 * observation per day; `computeSeries` does not look at dates, so a gap in the
 * weather is carried over as if the days were consecutive. Fill gaps upstream.
 */
import * as components from './components';
import { dayLengthTables, type DayLengthTables } from './day-length';

/** Noon local standard time weather: °C, %, km/h at 10 m, mm over the previous 24 h. */
export interface DailyWeather {
  temp: number;
  rh: number;
  ws: number;
  prec: number;
}

/** One day of a series: the weather plus where (latitude, decimal degrees) and when (month, 1–12). */
export interface WeatherDay extends DailyWeather {
  lat: number;
  month: number;
}

/** The moisture codes, the state carried from day to day. */
export interface FwiCodes {
  ffmc: number;
  dmc: number;
  dc: number;
}

/** All outputs of one day; its codes are the next day's state. */
export interface FwiDay extends FwiCodes {
  isi: number;
  bui: number;
  fwi: number;
  dsr: number;
}

export interface FwiOptions {
  /** false reproduces cffdrs's `lat.adjust = FALSE` (Canadian day lengths everywhere). Default true. */
  latAdjust?: boolean;
  /** Force the day-length tables instead of choosing them by latitude, e.g. from `dayLengthForSpanishProvince`. */
  dayLength?: Partial<DayLengthTables>;
}

/**
 * cffdrs's default start-up values (FFMC 85, DMC 6, DC 15), meant for a season
 * starting after snowmelt; Van Wagner (1987) gives the same.
 */
export const DEFAULT_START_CODES: Readonly<FwiCodes> = Object.freeze({ ffmc: 85, dmc: 6, dc: 15 });

/** One day: yesterday's codes and today's weather in, today's codes and indices out. */
export function step(state: FwiCodes, weather: DailyWeather, lat: number, month: number, options: FwiOptions = {}): FwiDay {
  const byLatitude = dayLengthTables(lat, options);
  const dmcTable = options.dayLength?.dmc ?? byLatitude.dmc;
  const dcTable = options.dayLength?.dc ?? byLatitude.dc;
  const { temp, rh, ws, prec } = weather;
  const ffmc = components.ffmc(state.ffmc, temp, rh, ws, prec);
  const dmc = components.dmc(state.dmc, temp, rh, prec, lat, month, dmcTable);
  const dc = components.dc(state.dc, temp, rh, prec, lat, month, dcTable);
  const isi = components.isi(ffmc, ws);
  const bui = components.bui(dmc, dc);
  const fwi = components.fwi(isi, bui);
  return { ffmc, dmc, dc, isi, bui, fwi, dsr: components.dsr(fwi) };
}

/**
 * Outputs for each day of one station's (or grid point's) series, in order.
 * Missing start values take DEFAULT_START_CODES.
 */
export function computeSeries(days: readonly WeatherDay[], start: Partial<FwiCodes> = {}, options: FwiOptions = {}): FwiDay[] {
  let state: FwiCodes = {
    ffmc: start.ffmc ?? DEFAULT_START_CODES.ffmc,
    dmc: start.dmc ?? DEFAULT_START_CODES.dmc,
    dc: start.dc ?? DEFAULT_START_CODES.dc,
  };
  const out: FwiDay[] = [];
  for (const day of days) {
    const today = step(state, day, day.lat, day.month, options);
    out.push(today);
    state = today;
  }
  return out;
}
