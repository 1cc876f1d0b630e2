/**
 * AEMET's conventional observations (`/api/observacion/convencional/todas`): one object
 * per station and hour, about the last 24 hours, e.g.
 *
 *   {"idema": "3195", "lon": -3.678056, "lat": 40.411944, "alt": 667.0, "ubi": "MADRID RETIRO",
 *    "fint": "2025-07-15T11:00:00", "ta": 31.2, "hr": 28.0, "vv": 2.5, "prec": 0.0, ...}
 *
 * `fint` is the end of the hour observed, in UTC without a zone; `ta` (°C), `hr` (%) and
 * `vv` (m/s, 10-minute mean at 10 m) are the values at `fint`; `prec` is the rain (mm)
 * of the 60 minutes before it. A value AEMET lacks is absent from the object.
 *
 * Plausibility: a value outside PLAUSIBLE is flagged and treated as missing, never
 * clamped or replaced.
 */
export interface HourlyObservation {
  idema: string;
  /** `fint` as epoch milliseconds (UTC). */
  fint: number;
  ta: number | null;
  hr: number | null;
  vv: number | null;
  prec: number | null;
  lat: number | null;
  lon: number | null;
  alt: number | null;
}

/** Values outside these bounds are flagged implausible (ta °C, hr %, vv m/s, prec mm in one hour). */
export const PLAUSIBLE = {
  ta: [-40, 50],
  hr: [1, 100],
  vv: [0, 60],
  prec: [0, 150],
} as const;

const FINT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]00:?00)?$/;

function numberOrNull(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.replace(',', '.')) : NaN;
  return Number.isFinite(n) ? n : null;
}

export interface ParsedObservations {
  rows: HourlyObservation[];
  /** Objects without a station id or a readable `fint`. */
  skipped: number;
  /** Values outside PLAUSIBLE, per variable; stored as missing. */
  implausible: { ta: number; hr: number; vv: number; prec: number };
}

export function parseObservations(data: unknown): ParsedObservations {
  if (!Array.isArray(data)) throw new Error('the AEMET observations are not a JSON array');
  const rows: HourlyObservation[] = [];
  const implausible = { ta: 0, hr: 0, vv: 0, prec: 0 };
  let skipped = 0;
  for (const item of data as Record<string, unknown>[]) {
    const idema = typeof item?.idema === 'string' ? item.idema.trim() : '';
    const match = typeof item?.fint === 'string' ? FINT.exec(item.fint) : null;
    const fint = match ? Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`) : NaN;
    if (!idema || !Number.isFinite(fint)) {
      skipped++;
      continue;
    }
    const checked = (key: keyof typeof PLAUSIBLE): number | null => {
      const value = numberOrNull(item[key]);
      if (value === null) return null;
      const [min, max] = PLAUSIBLE[key];
      if (value < min || value > max) {
        implausible[key]++;
        return null;
      }
      return value;
    };
    rows.push({
      idema,
      fint,
      ta: checked('ta'),
      hr: checked('hr'),
      vv: checked('vv'),
      prec: checked('prec'),
      lat: numberOrNull(item.lat),
      lon: numberOrNull(item.lon),
      alt: numberOrNull(item.alt),
    });
  }
  return { rows, skipped, implausible };
}

const HOUR_MS = 3_600_000;

/**
 * The UTC hour of 12:00 local standard time (daylight saving ignored, as the FWI System
 * asks): 11 UTC on the peninsula, the Balearics, Ceuta and Melilla (CET, UTC+1), 12 UTC
 * in the Canaries (WET, UTC+0), told apart by latitude (the Canaries lie south of 30° N).
 */
export function noonUtcHour(lat: number): number {
  return lat < 30 ? 12 : 11;
}

/** The instant (epoch ms) of noon local standard time on `date` at latitude `lat`. */
export function noonInstant(date: string, lat: number): number {
  return Date.parse(`${date}T00:00:00Z`) + noonUtcHour(lat) * HOUR_MS;
}

export interface StationNoon {
  temp: number;
  rh: number;
  /** km/h: AEMET's m/s × 3.6. */
  ws: number;
  /** mm over the 24 hours to noon. */
  prec: number;
}

/** Why a station gives no noon inputs on a day. */
export type StationGap = 'no_noon_observation' | 'missing_noon_value' | 'incomplete_precipitation';

/**
 * A station's noon inputs on `date` from its hourly rows (any order):
 *  - temp, rh, ws: the values of the hour ending at noon LST (no other hour stands in);
 *  - prec: the sum of the 24 hours ending at noon LST (`fint` after noon of the day
 *    before, up to noon); all 24 must be there, or the station gives no precipitation.
 */
export function stationNoon(hours: readonly HourlyObservation[], date: string, lat: number): StationNoon | StationGap {
  const noon = noonInstant(date, lat);
  const byHour = new Map<number, HourlyObservation>();
  for (const h of hours) if (h.fint > noon - 24 * HOUR_MS && h.fint <= noon) byHour.set(h.fint, h);
  const atNoon = byHour.get(noon);
  if (!atNoon) return 'no_noon_observation';
  if (atNoon.ta === null || atNoon.hr === null || atNoon.vv === null) return 'missing_noon_value';
  let prec = 0;
  for (let k = 0; k < 24; k++) {
    const value = byHour.get(noon - k * HOUR_MS)?.prec;
    if (value === undefined || value === null) return 'incomplete_precipitation';
    prec += value;
  }
  return { temp: atNoon.ta, rh: atNoon.hr, ws: atNoon.vv * 3.6, prec };
}
