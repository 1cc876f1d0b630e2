/**
 * Station noon inputs to a municipality's, by inverse-distance weighting:
 *  - candidates: stations with all four noon inputs that day, within MAX_DISTANCE_KM of
 *    the municipality's point (great-circle distance);
 *  - the K nearest of them, weights 1/d² normalised to sum 1; a station closer than
 *    NEAR_KM takes the whole weight (it stands on the point);
 *  - temperature: each station's value moved to the municipality's altitude by the
 *    standard lapse rate, T + LAPSE_RATE · (station altitude − municipality altitude) / 1000,
 *    when both altitudes are known; relative humidity, wind and precipitation are
 *    weighted as observed;
 *  - no station in range: no reading (the caller reports the municipality).
 */
import type { StationNoon } from './observations';

export const MAX_DISTANCE_KM = 50;
export const MAX_STATIONS = 4;
export const IDW_POWER = 2;
/** °C per km: the ICAO standard atmosphere's environmental lapse rate. */
export const LAPSE_RATE_C_PER_KM = 6.5;
const NEAR_KM = 0.05;
const EARTH_RADIUS_KM = 6371.0088;

export interface NoonStation extends StationNoon {
  id: string;
  lat: number;
  lon: number;
  altitudeM: number | null;
}

export interface ProvenanceStation {
  id: string;
  distance_km: number;
  weight: number;
  altitude_m: number | null;
}

export interface Provenance {
  source: 'aemet_observations';
  method: 'idw';
  power: number;
  max_distance_km: number;
  lapse_rate_c_per_km: number | null;
  stations: ProvenanceStation[];
}

export interface InterpolatedNoon {
  temp: number;
  rh: number;
  ws: number;
  prec: number;
  provenance: Provenance;
}

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle (haversine) distance in km. */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

const round = (x: number, decimals: number) => Number(x.toFixed(decimals));

/** The municipality's noon inputs (one decimal) and where they came from, or null with no station in range. */
export function interpolateNoon(point: { lat: number; lon: number; altitudeM: number | null }, stations: readonly NoonStation[]): InterpolatedNoon | null {
  // Cheap box first: 50 km is under 0.46° of latitude and under 0.66° of longitude south of 46° N.
  const latBox = MAX_DISTANCE_KM / 110;
  const lonBox = MAX_DISTANCE_KM / (111.32 * Math.cos(rad(Math.min(Math.abs(point.lat) + latBox, 89))));
  const near: { station: NoonStation; d: number }[] = [];
  for (const s of stations) {
    if (Math.abs(s.lat - point.lat) > latBox || Math.abs(s.lon - point.lon) > lonBox) continue;
    const d = distanceKm(point.lat, point.lon, s.lat, s.lon);
    if (d <= MAX_DISTANCE_KM) near.push({ station: s, d });
  }
  if (near.length === 0) return null;
  near.sort((a, b) => a.d - b.d || (a.station.id < b.station.id ? -1 : 1));
  const chosen = near[0]!.d < NEAR_KM ? near.slice(0, 1) : near.slice(0, MAX_STATIONS);
  const raw = chosen.map(({ d }) => (chosen.length === 1 ? 1 : 1 / d ** IDW_POWER));
  const total = raw.reduce((a, b) => a + b, 0);
  const weights = raw.map((w) => w / total);
  const corrected = point.altitudeM !== null && chosen.every(({ station }) => station.altitudeM !== null);
  let temp = 0;
  let rh = 0;
  let ws = 0;
  let prec = 0;
  chosen.forEach(({ station }, i) => {
    const w = weights[i]!;
    const lapse = corrected ? (LAPSE_RATE_C_PER_KM * (station.altitudeM! - point.altitudeM!)) / 1000 : 0;
    temp += w * (station.temp + lapse);
    rh += w * station.rh;
    ws += w * station.ws;
    prec += w * station.prec;
  });
  return {
    temp: round(temp, 1),
    rh: round(Math.min(100, Math.max(0, rh)), 1),
    ws: round(ws, 1),
    prec: round(prec, 1),
    provenance: {
      source: 'aemet_observations',
      method: 'idw',
      power: IDW_POWER,
      max_distance_km: MAX_DISTANCE_KM,
      lapse_rate_c_per_km: corrected ? LAPSE_RATE_C_PER_KM : null,
      stations: chosen.map(({ station, d }, i) => ({ id: station.id, distance_km: round(d, 2), weight: round(weights[i]!, 4), altitude_m: station.altitudeM })),
    },
  };
}
