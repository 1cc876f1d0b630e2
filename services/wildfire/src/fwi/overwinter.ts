/**
 * The overwintered Drought Code (Lawson & Armitage 2008, eq. 2–4; cffdrs's
 * `overwinter_drought_code`): the spring start-up DC from the last DC of the fall and
 * the precipitation of the winter between them.
 *
 *   Qf  = 800 · exp(−DCf / 400)          moisture equivalent of the fall DC
 *   Qs  = a · Qf + b · 3.94 · rw          spring moisture equivalent
 *   DCs = max(15, 400 · ln(800 / Qs))
 *
 * `a`, the carry-over fraction, is the share of the fall moisture still there in
 * spring; `b`, the wetting efficiency, the share of the winter precipitation that
 * reaches the layer the DC tracks. Lawson & Armitage's table 1 gives a = 1.0 when the
 * daily DC ran until freeze-up or continuous snow cover, 0.75 when it stopped before,
 * 0.5 where long dry spells in fall or winter deplete the soil; b = 0.9 on poorly
 * drained sites, 0.75 on moderately drained ones, 0.5 on well-drained or runoff-prone
 * ones. The floor of 15 is the standard start-up DC: no spring starts wetter.
 */

/** cffdrs's defaults (a = b = 0.75), used where a row or a community gives none. */
export const CFFDRS_OVERWINTER_DEFAULTS = Object.freeze({ a: 0.75, b: 0.75 });

/** The lowest spring DC: the standard start-up value. */
export const MIN_SPRING_DC = 15;

export interface OverwinterInput {
  /** The last DC of the fall (>= 0). */
  dcf: number;
  /** Winter precipitation, mm (>= 0). */
  rw: number;
  /** Carry-over fraction, (0, 1]. */
  a?: number;
  /** Wetting efficiency, [0, 1]. */
  b?: number;
}

/** The spring start-up DC. Inputs are taken as checked (see OVERWINTER_RANGES). */
export function overwinterDc({ dcf, rw, a = CFFDRS_OVERWINTER_DEFAULTS.a, b = CFFDRS_OVERWINTER_DEFAULTS.b }: OverwinterInput): number {
  const qf = 800 * Math.exp(-dcf / 400);
  const qs = a * qf + b * 3.94 * rw;
  return Math.max(MIN_SPRING_DC, 400 * Math.log(800 / qs));
}

/**
 * The accepted range of each input. `a` must be above 0: with a = 0 and no winter
 * precipitation Qs is 0 and the DC infinite (cffdrs answers Inf); both fractions are
 * shares, so at most 1.
 */
export const OVERWINTER_RANGES = {
  dcf: { min: 0, max: Infinity, minOpen: false, expected: 'expected a Drought Code, 0 or more' },
  rw: { min: 0, max: Infinity, minOpen: false, expected: 'expected a winter precipitation in mm, 0 or more' },
  a: { min: 0, max: 1, minOpen: true, expected: 'expected a carry-over fraction above 0 and at most 1' },
  b: { min: 0, max: 1, minOpen: false, expected: 'expected a wetting efficiency from 0 to 1' },
} as const;

export type OverwinterField = keyof typeof OVERWINTER_RANGES;

/** Whether `value` is within the range of `field`. */
export function inOverwinterRange(field: OverwinterField, value: number): boolean {
  const r = OVERWINTER_RANGES[field];
  return Number.isFinite(value) && (r.minOpen ? value > r.min : value >= r.min) && value <= r.max;
}
