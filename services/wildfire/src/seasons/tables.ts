import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const SEASON_ORIGINS = ['builtin', 'ingested'] as const;

/**
 * The época de peligro (alto) of each autonomous community and city (INE codes 01–19):
 * the recurring dates its regional plan fixes, who fixes them, the source and the
 * season's standing measures. A community with no fixed season has null name and dates
 * and says why in `note`. Seeded at start-up from seasons-table.ts (rows still
 * `builtin` follow a new table version); `wildfire ingest seasons` replaces rows as
 * `ingested`, which the seed never overwrites.
 */
export const dangerSeasons = pgTable('danger_seasons', {
  communityCode: text('community_code').primaryKey(),
  name: text('name'),
  /** Recurring first day, `MM-DD`; null: no fixed season. */
  fromDay: text('from_day'),
  /** Recurring last day (included), `MM-DD`; before `from_day` when the season spans New Year. */
  toDay: text('to_day'),
  authority: text('authority').notNull(),
  sourceTitle: text('source_title').notNull(),
  sourceUrl: text('source_url'),
  measures: jsonb('measures').$type<string[]>().notNull(),
  note: text('note'),
  origin: text('origin', { enum: SEASON_ORIGINS }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
