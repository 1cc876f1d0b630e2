import { doublePrecision, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Every Spanish municipality by INE code (province code + municipality code, 5 digits).
 * Seeded from the built-in registry (names and codes only); `ingest municipalities`
 * adds coordinates, altitude and population from the IGN/CNIG nomenclator, and any
 * municipality the registry lacks. `enriched_at` says when that last happened.
 */
export const municipalities = pgTable(
  'municipalities',
  {
    ineCode: text('ine_code').primaryKey(),
    name: text('name').notNull(),
    provinceCode: text('province_code').notNull(),
    province: text('province').notNull(),
    communityCode: text('community_code').notNull(),
    community: text('community').notNull(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    altitudeM: doublePrecision('altitude_m'),
    population: integer('population'),
    enrichedAt: timestamp('enriched_at', { withTimezone: true }),
  },
  (t) => [index('municipalities_province_idx').on(t.provinceCode)],
);

/**
 * Which version of each built-in data set was last loaded, so start-up re-seeds only
 * when the table is empty or the package version changed.
 */
export const seedState = pgTable('seed_state', {
  name: text('name').primaryKey(),
  version: text('version').notNull(),
  appliedAt: timestamp('applied_at', { withTimezone: true }).notNull().defaultNow(),
});
