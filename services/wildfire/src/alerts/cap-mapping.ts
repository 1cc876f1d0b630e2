/**
 * How a raised alert reads in CAP 1.2's three scales. CAP defines them (OASIS CAP 1.2 §3.2.2):
 * severity Minor "minimal to no known threat", Moderate "possible threat to life or property",
 * Severe "significant threat", Extreme "extraordinary threat"; urgency Immediate "act now",
 * Expected "within the next hour", Future "in the near future"; certainty Observed, Likely
 * (p > ~50%), Possible (p <= ~50%).
 *
 * Severity follows the EFFIS class the way European warning colours do (yellow Moderate,
 * orange Severe, red Extreme): high is the first class at which fires spread fast enough to
 * threaten property, very_high is when Ley 43/2003 art. 48.6 obliges the bans, extreme the top.
 * Urgency and certainty follow whether the day was observed and, for a forecast, how far ahead.
 */
import type { DangerClass } from '../decision-support/danger-classes';

export type CapSeverity = 'Extreme' | 'Severe' | 'Moderate' | 'Minor';
export type CapUrgency = 'Immediate' | 'Expected' | 'Future';
export type CapCertainty = 'Observed' | 'Likely' | 'Possible';

export const CAP_SEVERITY: Readonly<Record<DangerClass, CapSeverity>> = Object.freeze({
  very_low: 'Minor',
  low: 'Minor',
  moderate: 'Minor',
  high: 'Moderate',
  very_high: 'Severe',
  extreme: 'Extreme',
});

export interface CapTiming {
  urgency: CapUrgency;
  certainty: CapCertainty;
}

/**
 * Observed day: Immediate, Observed. Forecast: for today (lead 0) Immediate, Likely; for
 * tomorrow (lead 1) Expected, Likely; two or more days ahead Future, Possible (the FWI
 * forecast's skill falls with lead time: AEMET's weather beyond D+1 is itself a likelihood).
 */
export function capTiming(observed: boolean, leadDays: number): CapTiming {
  if (observed) return { urgency: 'Immediate', certainty: 'Observed' };
  if (leadDays <= 0) return { urgency: 'Immediate', certainty: 'Likely' };
  if (leadDays === 1) return { urgency: 'Expected', certainty: 'Likely' };
  return { urgency: 'Future', certainty: 'Possible' };
}

/**
 * Radius of the `<circle>` around a municipality's registry point, in km (CAP's unit).
 * The registry holds a point, not a boundary: 5 km is about the mean municipality's
 * equivalent radius (505,990 km² / 8,131 municipalities = 62 km², a circle of r = 4.4 km),
 * rounded up. The `INE` geocode, not the circle, says which municipality is meant.
 */
export const CAP_CIRCLE_RADIUS_KM = 5;

/** CAP `<circle>`: "lat,lon radius", WGS 84 decimal degrees, radius in km. */
export function capCircle(lat: number, lon: number): string {
  return `${round(lat, 5)},${round(lon, 5)} ${CAP_CIRCLE_RADIUS_KM}`;
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
