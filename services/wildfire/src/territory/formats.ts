/**
 * The text representations of the territory and the summary, as chunks written one
 * after another (a municipality or an area each), so all of Spain is never one string.
 */
import { DANGER_CLASS_CODES } from '../decision-support/danger-classes';
import type { TSummary, TTerritoryReading } from './schemas';

/** The territory as a JSON array of the rows already serialised, one element per chunk. */
export function* territoryJson(rows: readonly string[]): Generator<string> {
  yield '[';
  for (let i = 0; i < rows.length; i++) yield (i === 0 ? '' : ',') + rows[i];
  yield ']';
}

/**
 * RFC 7946: a FeatureCollection of Points at [longitude, latitude] (WGS 84 / ETRS89,
 * which agree to well under a metre), each with the JSON row's other fields as its
 * properties and the INE code as its id. A municipality without coordinates has a null
 * geometry, as §3.2 allows for an unlocated feature.
 */
export function* territoryGeoJson(rows: readonly TTerritoryReading[]): Generator<string> {
  yield '{"type":"FeatureCollection","features":[';
  for (let i = 0; i < rows.length; i++) {
    const { lat, lon, ...properties } = rows[i]!;
    const geometry = lat === null || lon === null ? null : { type: 'Point', coordinates: [lon, lat] };
    yield (i === 0 ? '' : ',') + JSON.stringify({ type: 'Feature', id: properties.municipio_id, geometry, properties });
  }
  yield ']}';
}

/** The columns of the territory CSV, in order: the JSON row's fields. */
export const TERRITORY_CSV_COLUMNS = [
  'municipio_id', 'municipality', 'province_code', 'province', 'community_code', 'community', 'date', 'risk_score', 'risk_label', 'danger_class',
  'fwi', 'ffmc', 'dmc', 'dc', 'isi', 'bui', 'dsr', 'temp', 'rh', 'ws', 'prec', 'source', 'lat', 'lon',
] as const satisfies readonly (keyof TTerritoryReading)[];

/**
 * One RFC 4180 field: quoted when it holds a comma, quote or line break ("Coruña, A"),
 * and a text starting with = + - @ or a tab is prefixed with ' so a spreadsheet never
 * runs it as a formula (numbers are written as numbers).
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvLine = (values: readonly (string | number | null)[]) => `${values.map(csvField).join(',')}\r\n`;

/** The territory as CSV: a header, then a line per municipality (CRLF line ends, dot decimals, UTF-8). */
export function* territoryCsv(rows: readonly TTerritoryReading[]): Generator<string> {
  yield csvLine(TERRITORY_CSV_COLUMNS);
  for (const row of rows) yield csvLine(TERRITORY_CSV_COLUMNS.map((c) => row[c]));
}

/**
 * The summary as CSV: a line per area. The top municipalities are `code:fwi` pairs
 * separated by spaces; the épocas in force, their names separated by ` | `.
 */
export const SUMMARY_CSV_COLUMNS = [
  'date', 'level', 'code', 'name', 'municipalities', 'max_fwi', 'max_fwi_municipio_id', 'max_fwi_municipality', 'mean_fwi',
  ...DANGER_CLASS_CODES, 'share_high_or_above', 'epocas_in_force', 'top',
] as const;

export function* summaryCsv(summary: TSummary): Generator<string> {
  yield csvLine(SUMMARY_CSV_COLUMNS);
  for (const a of summary.areas) {
    yield csvLine([
      summary.date, a.level, a.code, a.name, a.municipalities, a.max_fwi, a.max_fwi_municipality.municipio_id, a.max_fwi_municipality.municipality, a.mean_fwi,
      ...DANGER_CLASS_CODES.map((c) => a.danger_classes[c]),
      a.share_high_or_above,
      a.epocas_in_force.map((e) => e.name ?? e.community_code).join(' | '),
      a.top.map((t) => `${t.municipio_id}:${t.fwi}`).join(' '),
    ]);
  }
}
