import { date, doublePrecision, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The latest forecast of each municipality: days D+1…D+6 of the issue, with the FWI
 * chained from the last observed codes. A new issue replaces a municipality's days in
 * one transaction.
 */
export const forecastDays = pgTable(
  'forecast_days',
  {
    municipioId: text('municipio_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'string' }).notNull(),
    /** The Spanish day the run was made: lead days count from it. */
    issuedOn: date('issued_on', { mode: 'string' }).notNull(),
    leadDays: integer('lead_days').notNull(),
    temp: doublePrecision('temp').notNull(),
    rh: doublePrecision('rh').notNull(),
    ws: doublePrecision('ws').notNull(),
    prec: doublePrecision('prec').notNull(),
    precFrom: text('prec_from', { enum: ['hourly', 'probability'] }).notNull(),
    ffmc: doublePrecision('ffmc').notNull(),
    dmc: doublePrecision('dmc').notNull(),
    dc: doublePrecision('dc').notNull(),
    isi: doublePrecision('isi').notNull(),
    bui: doublePrecision('bui').notNull(),
    fwi: doublePrecision('fwi').notNull(),
    dsr: doublePrecision('dsr').notNull(),
  },
  (t) => [primaryKey({ columns: [t.municipioId, t.date] })],
);

/** One forecast run per Spanish day: how far it got, so an interrupted run resumes after `cursor`. */
export const forecastRuns = pgTable('forecast_runs', {
  issuedOn: date('issued_on', { mode: 'string' }).primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  total: integer('total').notNull(),
  done: integer('done').notNull(),
  /** The last municipality written (INE codes are taken in order). */
  cursor: text('cursor'),
});
