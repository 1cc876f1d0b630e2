import { boolean, date, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const DECISION_TYPES = ['prohibition', 'season', 'alert', 'closure', 'authorization', 'other'] as const;
export const SCOPE_LEVELS = ['municipality', 'province', 'community', 'national'] as const;
export const DECISION_ORIGINS = ['ingested', 'automatic'] as const;

/**
 * Territorial decisions (bans, épocas de peligro, alerts, closures...) that apply to a
 * municipality, a province, an autonomous community or the whole country. Ingested
 * rows come from `wildfire ingest decisions`; `decision_id` is derived from the
 * natural key (scope, type, first day, title), so loading a file twice changes nothing.
 */
export const decisions = pgTable(
  'decisions',
  {
    decisionId: text('decision_id').primaryKey(),
    type: text('type', { enum: DECISION_TYPES }).notNull(),
    title: text('title').notNull(),
    scopeLevel: text('scope_level', { enum: SCOPE_LEVELS }).notNull(),
    /** 5-digit INE code, 2-digit province, `CA` + 2-digit community, or `ES`. */
    scopeCode: text('scope_code').notNull(),
    dateFrom: date('date_from', { mode: 'string' }).notNull(),
    /** null: open-ended. */
    dateTo: date('date_to', { mode: 'string' }),
    measures: jsonb('measures').$type<string[]>().notNull(),
    legalBasis: text('legal_basis'),
    sourceUrl: text('source_url'),
    origin: text('origin', { enum: DECISION_ORIGINS }).notNull(),
    /**
     * Automatic decisions only: true for a run of forecast days (decisions/forecast-decisions.ts),
     * replaced at every forecast of the municipality; false for a run of observed days.
     */
    forecast: boolean('forecast').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('decisions_scope_idx').on(t.scopeCode, t.dateFrom)],
);
