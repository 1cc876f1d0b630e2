/**
 * The stored days with their FWI, as SQL over `readings` (municipio_id, date, fwi), for
 * other features to build on in their own queries (decisions/ derives its automatic
 * decisions from them) without reading the table themselves. Filter it by municipality
 * and date so the planner uses the (municipio_id, date) key.
 */
export function storedFwiDaysSql(): string {
  return 'SELECT municipio_id, date, fwi FROM readings';
}

/** Each municipality with stored readings and its first stored day (municipio_id, first), as SQL over `readings`. */
export function storedSeriesStartsSql(): string {
  return 'SELECT municipio_id, min(date)::text AS first FROM readings GROUP BY municipio_id';
}
