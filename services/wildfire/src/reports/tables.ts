import { sql } from 'drizzle-orm';
import { boolean, jsonb, index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../tokens/tables';

export const REPORT_FORMATS = ['pdf', 'csv', 'json'] as const;
export const REPORT_LANGS = ['es', 'en'] as const;
export const REPORT_STATUSES = ['pending', 'ready', 'failed'] as const;
export const REPORT_SOURCES = ['observed', 'synthetic'] as const;

/**
 * One generated (or generating) monthly report. The account comes from the token that
 * asked for it, never from the request. The file lives in the service's file store
 * under `file_key` once `status` is `ready`; a failed report has an `error` and no file.
 * Rows of live reports outlive their files: after `expires_at` the API answers 410 from the row.
 * A test token's report (`synthetic`) expires after WILDFIRE_TEST_REPORT_RETENTION_DAYS and
 * loses its row with its file; one finishing replaces the account's others of the same
 * municipality and month.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    municipioId: text('municipio_id').notNull(),
    /** `YYYY-MM`. */
    periodo: text('periodo').notNull(),
    format: text('format', { enum: REPORT_FORMATS }).notNull(),
    lang: text('lang', { enum: REPORT_LANGS }).notNull(),
    /** observed: stored readings (live tokens); synthetic: the test series (test tokens). */
    source: text('source', { enum: REPORT_SOURCES }).notNull(),
    /**
     * The requesting token's municipalities of the report's province, sorted: what the PDF's
     * province map may show (null: every municipality, an unrestricted token or a schedule).
     * A report is reused only for a token with the same view.
     */
    mapMunicipios: jsonb('map_municipios').$type<string[]>(),
    /** The month was not over when the report was generated. */
    provisional: boolean('provisional').notNull(),
    status: text('status', { enum: REPORT_STATUSES }).notNull(),
    sizeBytes: integer('size_bytes'),
    sha256: text('sha256'),
    fileKey: text('file_key'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** created_at + 12 months (interface §8); test reports: + WILDFIRE_TEST_REPORT_RETENTION_DAYS days. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('reports_account_created_idx').on(t.accountId, t.createdAt),
    // A test token's request joins the identical one pending instead of starting another.
    uniqueIndex('reports_test_pending_key')
      .on(t.accountId, t.municipioId, t.periodo, t.format, t.lang)
      .where(sql`${t.status} = 'pending' and ${t.source} = 'synthetic'`),
  ],
);

/**
 * `wildfire reports schedule`: the account wants the report of `municipio_id` in this format
 * and language for every finished month. On the 1st of each month (Madrid time) the
 * `report.scheduled` job generates the previous month's report of every row.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    municipioId: text('municipio_id').notNull(),
    format: text('format', { enum: REPORT_FORMATS }).notNull(),
    lang: text('lang', { enum: REPORT_LANGS }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [unique('report_schedules_account_municipio_format_lang_key').on(t.accountId, t.municipioId, t.format, t.lang)],
);

/**
 * The render slots in use (WILDFIRE_REPORT_ACCOUNT_CONCURRENCY per account, across every
 * worker): a job generating a report holds one, as a lease until `until`, so a killed
 * worker's slot frees itself. A slot counts only while its report is pending. Its own table,
 * with no foreign key, so taking a slot never waits on the report row's lock (nor the
 * report's update on the slot).
 */
export const reportRenderSlots = pgTable(
  'report_render_slots',
  {
    reportId: uuid('report_id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    until: timestamp('until', { withTimezone: true }).notNull(),
  },
  (t) => [index('report_render_slots_account_idx').on(t.accountId)],
);
