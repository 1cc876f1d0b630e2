/**
 * Day-length factors of the Duff Moisture Code (Le, Van Wagner 1987 eq. 16) and
 * the Drought Code (Lf, eq. 22), and cffdrs's choice among them by latitude
 * (`lat.adjust = TRUE`, after Lawson & Armitage 2008, "Weather guide for the
 * Canadian Forest Fire Danger Rating System"). The table names are cffdrs's own
 * (`ell01`…`ell04`, `fl01`, `fl02`) so the code can be read side by side with
 * its `.dmcCalc` / `.dcCalc`.
 *
 * Spain falls in two DMC bands: the mainland, the Balearics, Ceuta and Melilla
 * (35.2–43.8°N) use the Canadian standard table `ell01`; the Canary Islands
 * (27.6–29.5°N) use the 10–30°N table `ell02`. Both use `fl01` for the DC, whose
 * band switches at 20°N. Latitude alone picks the right tables; a caller that
 * knows the province and not the coordinates can use
 * `dayLengthForSpanishProvince` and pass the result as an override.
 */

/** Effective day length (hours) by month, January first, for the DMC. */
export const DMC_DAY_LENGTH = {
  /** Reference 46°N, the Canadian standard; cffdrs uses it for latitude > 30°N. */
  ell01: [6.5, 7.5, 9, 12.8, 13.9, 13.9, 12.4, 10.9, 9.4, 8, 7, 6],
  /** Reference 20°N, for 10°N < latitude <= 30°N. */
  ell02: [7.9, 8.4, 8.9, 9.5, 9.9, 10.2, 10.1, 9.7, 9.1, 8.6, 8.1, 7.8],
  /** Reference 20°S, for 30°S < latitude <= 10°S. */
  ell03: [10.1, 9.6, 9.1, 8.5, 8.1, 7.8, 7.9, 8.3, 8.9, 9.4, 9.9, 10.2],
  /** Reference 40°S, for latitude <= 30°S. */
  ell04: [11.5, 10.5, 9.2, 7.9, 6.8, 6.2, 6.5, 7.4, 8.7, 10, 11.2, 11.8],
  /** Near the equator (10°S < latitude <= 10°N) cffdrs uses 9 all year. */
  equator: [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9],
} as const satisfies Record<string, readonly number[]>;

/** Day-length adjustment (Lf) by month, January first, for the DC. */
export const DC_DAY_LENGTH = {
  /** Northern table, for latitude > 20°N. */
  fl01: [-1.6, -1.6, -1.6, 0.9, 3.8, 5.8, 6.4, 5, 2.4, 0.4, -1.6, -1.6],
  /** Southern table, for latitude <= 20°S. */
  fl02: [6.4, 5, 2.4, 0.4, -1.6, -1.6, -1.6, -1.6, -1.6, 0.9, 3.8, 5.8],
  /** Near the equator (20°S < latitude <= 20°N) cffdrs uses 1.4 all year. */
  equator: [1.4, 1.4, 1.4, 1.4, 1.4, 1.4, 1.4, 1.4, 1.4, 1.4, 1.4, 1.4],
} as const satisfies Record<string, readonly number[]>;

export type DmcDayLengthTable = keyof typeof DMC_DAY_LENGTH;
export type DcDayLengthTable = keyof typeof DC_DAY_LENGTH;

/** The pair of tables one place uses. */
export interface DayLengthTables {
  dmc: DmcDayLengthTable;
  dc: DcDayLengthTable;
}

/** cffdrs `.dmcCalc` with `lat.adjust = TRUE`; each band includes its northern edge (`lat <= 30 & lat > 10`). */
export function dmcDayLengthTable(lat: number): DmcDayLengthTable {
  if (lat > 30) return 'ell01';
  if (lat > 10) return 'ell02';
  if (lat > -10) return 'equator';
  if (lat > -30) return 'ell03';
  return 'ell04';
}

/** cffdrs `.dcCalc` with `lat.adjust = TRUE`. */
export function dcDayLengthTable(lat: number): DcDayLengthTable {
  if (lat > 20) return 'fl01';
  if (lat > -20) return 'equator';
  return 'fl02';
}

/**
 * Tables for a latitude. `latAdjust: false` reproduces cffdrs's `lat.adjust = FALSE`:
 * the Canadian tables everywhere, whatever the latitude.
 */
export function dayLengthTables(lat: number, options: { latAdjust?: boolean } = {}): DayLengthTables {
  if (options.latAdjust === false) return { dmc: 'ell01', dc: 'fl01' };
  return { dmc: dmcDayLengthTable(lat), dc: dcDayLengthTable(lat) };
}

/** INE province codes of the Canary Islands: Las Palmas (35) and Santa Cruz de Tenerife (38). */
const CANARY_PROVINCES = new Set([35, 38]);

/**
 * Tables for a Spanish province given by its INE code (1–52, as a number or a
 * string such as "07"), for callers without coordinates: the Canary Islands take
 * the 10–30°N DMC table, every other province (mainland, Balearics, Ceuta 51,
 * Melilla 52) the Canadian one. The DC table is `fl01` everywhere in Spain.
 */
export function dayLengthForSpanishProvince(provinceCode: number | string): DayLengthTables {
  const code = typeof provinceCode === 'number' ? provinceCode : /^\d{1,2}$/.test(provinceCode.trim()) ? Number(provinceCode) : NaN;
  if (!Number.isInteger(code) || code < 1 || code > 52) {
    throw new RangeError(`unknown Spanish province code ${JSON.stringify(provinceCode)}: expected an INE code from 01 to 52`);
  }
  return { dmc: CANARY_PROVINCES.has(code) ? 'ell02' : 'ell01', dc: 'fl01' };
}

/** The factor for a month (1–12); a month outside that range would silently turn every code into NaN, so it throws. */
export function dayLengthFactor(table: readonly number[], month: number): number {
  const factor = Number.isInteger(month) ? table[month - 1] : undefined;
  if (factor === undefined) throw new RangeError(`month must be an integer from 1 to 12, got ${month}`);
  return factor;
}
