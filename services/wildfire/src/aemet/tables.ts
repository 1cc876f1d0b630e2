import { date, doublePrecision, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** AEMET's station inventory, cached: refreshed when older than the inventory's time to live. */
export const aemetStations = pgTable('aemet_stations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  lat: doublePrecision('lat').notNull(),
  lon: doublePrecision('lon').notNull(),
  altitudeM: doublePrecision('altitude_m').notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
});

/**
 * AEMET's hourly conventional observations as polled (the product holds only about the
 * last 24 hours, so each poll adds what the last one could not see). Missing and
 * implausible values are null. Kept HOURS_KEPT_DAYS days.
 */
export const aemetStationHours = pgTable(
  'aemet_station_hours',
  {
    idema: text('idema').notNull(),
    fint: timestamp('fint', { withTimezone: true, mode: 'string' }).notNull(),
    ta: doublePrecision('ta'),
    hr: doublePrecision('hr'),
    vv: doublePrecision('vv'),
    prec: doublePrecision('prec'),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    alt: doublePrecision('alt'),
  },
  (t) => [primaryKey({ columns: [t.idema, t.fint] })],
);

/** Each day whose observed readings were ingested from AEMET, with what the run found. */
export const aemetObservedDays = pgTable('aemet_observed_days', {
  date: date('date', { mode: 'string' }).primaryKey(),
  ingestedAt: timestamp('ingested_at', { withTimezone: true }).notNull(),
  stations: integer('stations').notNull(),
  municipalities: integer('municipalities').notNull(),
  withoutStation: integer('without_station').notNull(),
});

/** Where an observed reading's weather came from: the stations, distances and weights. Written with the reading. */
export const readingProvenance = pgTable(
  'reading_provenance',
  {
    municipioId: text('municipio_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    provenance: jsonb('provenance').notNull(),
  },
  (t) => [primaryKey({ columns: [t.municipioId, t.date] })],
);
