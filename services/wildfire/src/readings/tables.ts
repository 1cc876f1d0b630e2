import { date, doublePrecision, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { municipalities } from '../municipalities/tables';

/**
 * One day of one municipality: the noon weather it was computed from and the FWI
 * System outputs carried from the day before, with the risk derived from the FWI.
 * Written only by weather ingestion; the primary key serves the latest-reading and
 * date-range reads.
 */
export const readings = pgTable(
  'readings',
  {
    municipioId: text('municipio_id')
      .notNull()
      .references(() => municipalities.ineCode),
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
