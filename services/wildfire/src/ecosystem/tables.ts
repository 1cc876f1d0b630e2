import { sql } from 'drizzle-orm';
import { check, doublePrecision, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { municipalities } from '../municipalities/tables';
import { FUEL_MODEL_MAX, FUEL_MODEL_MIN, MAX_FUEL_LOAD_T_HA, VEGETATION_TYPE_CODES } from './classes';

/**
 * The ecosystem of each municipality as `ingest ecosystem` last loaded it: its
 * dominant vegetation type, fuel model (null on non-burnable land), fuel load and
 * forest cover. One row per municipality; a later file replaces the rows it names.
 * The checks repeat the importer's rules so that no other writer can store what
 * the API could not describe. `updated_at` moves only when a value changes.
 */
export const ecosystems = pgTable(
  'ecosystems',
  {
    municipioId: text('municipio_id')
      .primaryKey()
      .references(() => municipalities.ineCode),
    vegetationType: text('vegetation_type', { enum: VEGETATION_TYPE_CODES }).notNull(),
    fuelModel: smallint('fuel_model'),
    fuelLoadTHa: doublePrecision('fuel_load_t_ha').notNull(),
    forestCoverPct: doublePrecision('forest_cover_pct').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ecosystems_vegetation_type_check', sql`${t.vegetationType} IN (${sql.raw(VEGETATION_TYPE_CODES.map((c) => `'${c}'`).join(', '))})`),
    check('ecosystems_fuel_model_check', sql`${t.fuelModel} BETWEEN ${sql.raw(String(FUEL_MODEL_MIN))} AND ${sql.raw(String(FUEL_MODEL_MAX))}`),
    check('ecosystems_fuel_load_check', sql`${t.fuelLoadTHa} >= 0 AND ${t.fuelLoadTHa} <= ${sql.raw(String(MAX_FUEL_LOAD_T_HA))}`),
    check('ecosystems_forest_cover_check', sql`${t.forestCoverPct} >= 0 AND ${t.forestCoverPct} <= 100`),
  ],
);
