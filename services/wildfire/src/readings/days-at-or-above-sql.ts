/**
 * Stored days at or above an FWI, as SQL over `readings` (municipio_id, date), for
 * other features to build on in their own queries (decisions/ derives its automatic
 * decisions from them) without reading the table themselves. `minFwi` is a
 * placeholder or literal of the caller's query, e.g. `$3`.
 */
export function readingDaysAtOrAboveSql(minFwi: string): string {
  return `SELECT municipio_id, date FROM readings WHERE fwi >= ${minFwi}`;
}
