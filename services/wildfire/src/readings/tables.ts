import { date, doublePrecision, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One day of one municipality: the noon weather it was computed from and the FWI
 * System outputs carried from the day before, with the risk derived from the FWI.
 * Written only by weather ingestion; the primary key serves the latest-reading and
 * date-range reads.
 *
 * `municipio_id` names a municipality, but not through a foreign key (dropped in
 * migration 0009): its per-row check cost ingestion about 1.4 s of every 365,000
 * readings, 60% of the write. The same integrity holds by two other means:
 *  - writes: weather ingestion, the only writer, checks the file's municipalities in
 *    one query inside its transaction and locks them (`FOR KEY SHARE`, as the foreign
 *    key did) until it commits (repository.ts `lockMunicipalities`);
 *  - the other side: a trigger on municipalities refuses to delete or re-code one that
 *    has readings, with the foreign key's error (23503), as the foreign key did.
 */
export const readings = pgTable(
  'readings',
  {
    municipioId: text('municipio_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    temp: doublePrecision('temp').notNull(),
    rh: doublePrecision('rh').notNull(),
    ws: doublePrecision('ws').notNull(),
    prec: doublePrecision('prec').notNull(),
    ffmc: doublePrecision('ffmc').notNull(),
    dmc: doublePrecision('dmc').notNull(),
    dc: doublePrecision('dc').notNull(),
    isi: doublePrecision('isi').notNull(),
    bui: doublePrecision('bui').notNull(),
    fwi: doublePrecision('fwi').notNull(),
    dsr: doublePrecision('dsr').notNull(),
    riskScore: doublePrecision('risk_score').notNull(),
    riskLabel: text('risk_label', { enum: ['LOW', 'MEDIUM', 'HIGH'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.municipioId, t.date] })],
);

/**
 * When the readings of each day last changed: weather ingestion stamps every day from
 * the first day of its file to the last reading it recomputed, in its transaction, when
 * it inserted or changed any reading. It is the `Last-Modified` of the day's territory
 * and summary answers.
 */
export const readingDays = pgTable('reading_days', {
  date: date('date', { mode: 'string' }).primaryKey(),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
});
