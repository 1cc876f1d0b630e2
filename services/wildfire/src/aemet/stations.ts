/**
 * AEMET's station inventory (`/api/valores/climatologicos/inventarioestaciones/todasestaciones`):
 * one object per station with every field a string,
 *
 *   {"latitud": "394924N", "provincia": "ILLES BALEARS", "altitud": "490",
 *    "indicativo": "B013X", "nombre": "ESCORCA, LLUC", "indsinop": "08304", "longitud": "025309E"}
 *
 * Latitude is DDMMSS and longitude DDMMSS (as AEMET writes it: "034041W" is 3°40'41" W; a
 * three-digit DDDMMSS is read too), each followed by its hemisphere (N/S, E/W).
 * A station whose position or altitude does not parse is left out, never guessed.
 */
export interface Station {
  id: string;
  name: string;
  lat: number;
  lon: number;
  altitudeM: number;
}

/** Degrees of a DMS string such as "394924N" (lat) or "025309E" (lon); null when malformed or out of range. */
export function dmsToDegrees(text: string, axis: 'lat' | 'lon'): number | null {
  const match = (axis === 'lat' ? /^(\d{2})(\d{2})(\d{2})([NS])$/ : /^(\d{2,3})(\d{2})(\d{2})([EW])$/).exec(text.trim().toUpperCase());
  if (!match) return null;
  const [deg, min, sec] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (min >= 60 || sec >= 60) return null;
  const value = deg + min / 60 + sec / 3600;
  if (value > (axis === 'lat' ? 90 : 180)) return null;
  return match[4] === 'S' || match[4] === 'W' ? -value : value;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

/** The inventory's stations that have an id, a position and an altitude; `skipped` counts the others. */
export function parseInventory(data: unknown): { stations: Station[]; skipped: number } {
  if (!Array.isArray(data)) throw new Error('the AEMET station inventory is not a JSON array');
  const stations: Station[] = [];
  let skipped = 0;
  for (const item of data as Record<string, unknown>[]) {
    const id = text(item?.indicativo)?.trim();
    const lat = dmsToDegrees(text(item?.latitud) ?? '', 'lat');
    const lon = dmsToDegrees(text(item?.longitud) ?? '', 'lon');
    const altitudeText = text(item?.altitud)?.trim().replace(',', '.');
    const altitudeM = altitudeText ? Number(altitudeText) : NaN;
    if (!id || lat === null || lon === null || !Number.isFinite(altitudeM)) {
      skipped++;
      continue;
    }
    stations.push({ id, name: text(item.nombre)?.trim() ?? id, lat, lon, altitudeM });
  }
  return { stations, skipped };
}
