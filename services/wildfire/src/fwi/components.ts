/**
 * The six components of the Canadian Forest Fire Weather Index System and the
 * Daily Severity Rating, one pure function each.
 *
 * Equations: Van Wagner, C.E. 1987. Development and structure of the Canadian
 * Forest Fire Weather Index System. Can. For. Serv., Ottawa. For. Tech. Rep. 35;
 * equation numbers below are that report's (also used by Van Wagner & Pickett
 * 1985, For. Tech. Rep. 33). Where the reference implementation, the cffdrs R
 * package (cffdrs/cffdrs_r, functions `.ffmcCalc`, `.dmcCalc`, `.dcCalc`,
 * `.ISIcalc`, `.buiCalc`, `.fwiCalc`), departs from the printed equations, we
 * follow cffdrs, because its published test output is what we verify against.
 *
 * Inputs are noon local standard time observations: temperature (°C), relative
 * humidity (%), 10 m open wind speed (km/h) and 24-hour rainfall (mm). Each
 * function throws a RangeError for an input the equations cannot take (NaN,
 * negative rain, a code outside its scale…) instead of returning NaN.
 */
import {
  DC_DAY_LENGTH,
  DMC_DAY_LENGTH,
  dayLengthFactor,
  dcDayLengthTable,
  dmcDayLengthTable,
  type DcDayLengthTable,
  type DmcDayLengthTable,
} from './day-length';

/**
 * 250·59.5/101 = 147.27723, the exact constant of the FFMC ↔ moisture conversion
 * (eqs. 1 and 10), so that FFMC 0 ↔ 250 % and FFMC 101 ↔ 0 %. Van Wagner printed
 * the rounded 147.2; cffdrs uses the exact value in both directions and its test
 * output only matches with it.
 */
export const FFMC_COEFFICIENT = (250 * 59.5) / 101;

/**
 * cffdrs's `fwi()` replaces rh >= 100 by 99.9999 before every component, keeping
 * the (100 - rh) terms strictly positive; we do the same in each component so a
 * component called on its own agrees with the series.
 */
const RH_CAP = 99.9999;

function capRh(rh: number): number {
  return rh >= 100 ? RH_CAP : rh;
}

function requireFinite(name: string, value: number): void {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number, got ${value}`);
}

function requireAtLeast(name: string, value: number, min: number): void {
  requireFinite(name, value);
  if (value < min) throw new RangeError(`${name} must be >= ${min}, got ${value}`);
}

function requireWithin(name: string, value: number, min: number, max: number): void {
  requireFinite(name, value);
  if (value < min || value > max) throw new RangeError(`${name} must be between ${min} and ${max}, got ${value}`);
}

/** Eq. 1: fine fuel moisture content (%) for an FFMC. */
export function ffmcToMoisture(ffmc: number): number {
  return (FFMC_COEFFICIENT * (101 - ffmc)) / (59.5 + ffmc);
}

/**
 * Fine Fuel Moisture Code (eqs. 1–10), from yesterday's FFMC and today's noon
 * weather. rh above 100 is capped (see RH_CAP); the result is clamped to [0, 101]
 * as in cffdrs.
 */
export function ffmc(prevFfmc: number, temp: number, rh: number, ws: number, prec: number): number {
  requireWithin('prevFfmc', prevFfmc, 0, 101);
  requireFinite('temp', temp);
  requireAtLeast('rh', rh, 0);
  requireAtLeast('ws', ws, 0);
  requireAtLeast('prec', prec, 0);
  const h = capRh(rh);

  let mo = ffmcToMoisture(prevFfmc);
  // Eqs. 2, 3a, 3b: the first 0.5 mm is intercepted by the canopy; above 150 %
  // moisture the extra term of eq. 3b applies (computed from the pre-rain moisture).
  if (prec > 0.5) {
    const rf = prec - 0.5;
    const rainGain = 42.5 * rf * Math.exp(-100 / (251 - mo)) * (1 - Math.exp(-6.93 / rf));
    const saturationGain = mo > 150 ? 0.0015 * (mo - 150) * (mo - 150) * Math.sqrt(rf) : 0;
    mo = mo + rainGain + saturationGain;
  }
  // Litter holds at most about 250 % moisture (cffdrs caps here).
  mo = Math.min(mo, 250);

  // Eqs. 4 and 5: equilibrium moisture contents for drying (Ed) and wetting (Ew).
  const tempTerm = 0.18 * (21.1 - temp) * (1 - Math.exp(-0.115 * h));
  const ed = 0.942 * h ** 0.679 + 11 * Math.exp((h - 100) / 10) + tempTerm;
  const ew = 0.618 * h ** 0.753 + 10 * Math.exp((h - 100) / 10) + tempTerm;
  const temperatureFactor = 0.581 * Math.exp(0.0365 * temp);

  let m = mo;
  if (mo > ed) {
    // Eqs. 6a, 6b, 8: drying towards Ed.
    const ko = 0.424 * (1 - (h / 100) ** 1.7) + 0.0694 * Math.sqrt(ws) * (1 - (h / 100) ** 8);
    m = ed + (mo - ed) / 10 ** (ko * temperatureFactor);
  } else if (mo < ew) {
    // Eqs. 7a, 7b, 9: wetting towards Ew. Between Ew and Ed the moisture is unchanged.
    const k1 = 0.424 * (1 - ((100 - h) / 100) ** 1.7) + 0.0694 * Math.sqrt(ws) * (1 - ((100 - h) / 100) ** 8);
    m = ew - (ew - mo) / 10 ** (k1 * temperatureFactor);
  }

  // Eq. 10, with the exact coefficient (see FFMC_COEFFICIENT).
  const result = (59.5 * (250 - m)) / (FFMC_COEFFICIENT + m);
  return Math.min(101, Math.max(0, result));
}

/**
 * Duff Moisture Code (eqs. 11–17). `table` overrides the day-length table that
 * the latitude would select (see day-length.ts), e.g. by province. Temperatures
 * below -1.1 °C count as -1.1 (no drying), as in cffdrs.
 */
export function dmc(
  prevDmc: number,
  temp: number,
  rh: number,
  prec: number,
  lat: number,
  month: number,
  table: DmcDayLengthTable = dmcDayLengthTable(lat),
): number {
  requireAtLeast('prevDmc', prevDmc, 0);
  requireFinite('temp', temp);
  requireAtLeast('rh', rh, 0);
  requireAtLeast('prec', prec, 0);
  requireWithin('lat', lat, -90, 90);
  const dayLength = dayLengthFactor(DMC_DAY_LENGTH[table], month);
  const h = capRh(rh);
  const t = Math.max(temp, -1.1);

  // Eq. 16, with eq. 17's factor 100 folded into the 1e-4.
  const drying = 1.894 * (t + 1.1) * (100 - h) * dayLength * 1e-4;

  let pr = prevDmc;
  if (prec > 1.5) {
    // Eq. 11: effective rain.
    const re = 0.92 * prec - 1.27;
    // Eq. 12 as cffdrs writes it: 20 + 280/exp(0.023·Po), i.e. with e^5.6348 ≈ 280.
    const mo = 20 + 280 / Math.exp(0.023 * prevDmc);
    // Eqs. 13a, 13b, 13c.
    const b = prevDmc <= 33 ? 100 / (0.5 + 0.3 * prevDmc) : prevDmc <= 65 ? 14 - 1.3 * Math.log(prevDmc) : 6.2 * Math.log(prevDmc) - 17.2;
    // Eq. 14: duff moisture after rain.
    const mr = mo + (1000 * re) / (48.77 + b * re);
    // Eq. 15 as cffdrs writes it: 43.43·(5.6348 − ln(Mr − 20)).
    pr = Math.max(0, 43.43 * (5.6348 - Math.log(mr - 20)));
  }
  return Math.max(0, pr + drying);
}

/**
 * Drought Code (eqs. 18–23). `table` overrides the day-length table that the
 * latitude would select. Temperatures below -2.8 °C count as -2.8, and negative
 * potential evapotranspiration counts as 0, as in cffdrs.
 */
export function dc(
  prevDc: number,
  temp: number,
  rh: number,
  prec: number,
  lat: number,
  month: number,
  table: DcDayLengthTable = dcDayLengthTable(lat),
): number {
  requireAtLeast('prevDc', prevDc, 0);
  requireFinite('temp', temp);
  requireAtLeast('rh', rh, 0);
  requireAtLeast('prec', prec, 0);
  requireWithin('lat', lat, -90, 90);
  const dayLength = dayLengthFactor(DC_DAY_LENGTH[table], month);
  const t = Math.max(temp, -2.8);

  // Eq. 22 (halved per eq. 23), floored at 0 so winter days never wet the DC.
  const evapotranspiration = Math.max(0, (0.36 * (t + 2.8) + dayLength) / 2);

  let dr = prevDc;
  if (prec > 2.8) {
    // Eqs. 18–21, folded as in cffdrs: Do − 400·ln(1 + 3.937·rd/Qo).
    const rd = 0.83 * prec - 1.27;
    const qo = 800 * Math.exp(-prevDc / 400);
    dr = Math.max(0, prevDc - 400 * Math.log(1 + (3.937 * rd) / qo));
  }
  return Math.max(0, dr + evapotranspiration);
}

/** Initial Spread Index (eqs. 24–26), without the FBP high-wind modification. */
export function isi(ffmc: number, ws: number): number {
  requireWithin('ffmc', ffmc, 0, 101);
  requireAtLeast('ws', ws, 0);
  const m = ffmcToMoisture(ffmc);
  const windFactor = Math.exp(0.05039 * ws);
  const moistureFactor = 91.9 * Math.exp(-0.1386 * m) * (1 + m ** 5.31 / 4.93e7);
  return 0.208 * windFactor * moistureFactor;
}

/** Buildup Index (eqs. 27a, 27b), including cffdrs's guards for DMC or DC at 0. */
export function bui(dmc: number, dc: number): number {
  requireAtLeast('dmc', dmc, 0);
  requireAtLeast('dc', dc, 0);
  const u = dmc === 0 && dc === 0 ? 0 : (0.8 * dc * dmc) / (dmc + 0.4 * dc);
  if (u >= dmc) return u;
  // Eq. 27b applies when 27a gives less than the DMC itself.
  const p = dmc === 0 ? 0 : (dmc - u) / dmc;
  const cc = 0.92 + (0.0114 * dmc) ** 1.7;
  return Math.max(0, dmc - cc * p);
}

/** Fire Weather Index (eqs. 28a, 28b, 29, 30a, 30b). */
export function fwi(isi: number, bui: number): number {
  requireAtLeast('isi', isi, 0);
  requireAtLeast('bui', bui, 0);
  const fD = bui > 80 ? 1000 / (25 + 108.64 / Math.exp(0.023 * bui)) : 0.626 * bui ** 0.809 + 2;
  const b = 0.1 * isi * fD;
  return b <= 1 ? b : Math.exp(2.72 * (0.434 * Math.log(b)) ** 0.647);
}

/** Daily Severity Rating, 0.0272·FWI^1.77 (Van Wagner 1970; cffdrs "Eq. 31"). */
export function dsr(fwi: number): number {
  requireAtLeast('fwi', fwi, 0);
  return 0.0272 * fwi ** 1.77;
}
