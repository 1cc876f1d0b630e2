import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, lte } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { reportSchedules, reports } from './tables';

export type ReportRow = typeof reports.$inferSelect;
export type ReportScheduleRow = typeof reportSchedules.$inferSelect;
export type ReportScheduleKey = Pick<ReportScheduleRow, 'accountId' | 'municipioId' | 'format' | 'lang'>;
export type NewReport = Omit<typeof reports.$inferInsert, 'status' | 'sizeBytes' | 'sha256' | 'fileKey' | 'error' | 'finishedAt'>;

/** How many same-day reports reuse looks at: the newest usually wins; the others cover a lost file. */
const REUSE_CANDIDATES = 3;

/** The only code that touches the reports and report_schedules tables. */
/** What makes two reports the same request: account, municipality, period, format, language and kind of data. */
type ReportKey = Pick<ReportRow, 'accountId' | 'municipioId' | 'periodo' | 'format' | 'lang' | 'source'>;
const sameReport = (key: ReportKey) => [
  eq(reports.accountId, key.accountId),
  eq(reports.municipioId, key.municipioId),
  eq(reports.periodo, key.periodo),
  eq(reports.format, key.format),
  eq(reports.lang, key.lang),
  eq(reports.source, key.source),
];

export function createReportsRepository(db: WildfireDb) {
  return {
    async insert(report: NewReport): Promise<ReportRow> {
      const [row] = await db
        .insert(reports)
        .values({ ...report, status: 'pending' })
        .returning();
      return row!;
    },

    async find(id: string): Promise<ReportRow | null> {
      const [row] = await db.select().from(reports).where(eq(reports.id, id));
      return row ?? null;
    },

    /** The report, only when it belongs to the account. */
    async findForAccount(accountId: string, id: string): Promise<ReportRow | null> {
      const [row] = await db
        .select()
        .from(reports)
        .where(and(eq(reports.id, id), eq(reports.accountId, accountId)));
      return row ?? null;
    },

    /**
     * The ready reports with a file of exactly this request (account, municipality, month,
     * format, language, source) created from `since` to `now`, newest first: the candidates
     * for reuse, which `isReusable` (rules.ts) decides on.
     */
    async reuseCandidates(
      key: ReportKey,
      since: Date,
      now: Date,
    ): Promise<ReportRow[]> {
      return db
        .select()
        .from(reports)
        .where(
          and(
            ...sameReport(key),
            eq(reports.status, 'ready'),
            isNotNull(reports.fileKey),
            gte(reports.createdAt, since),
            lte(reports.createdAt, now),
          ),
        )
        .orderBy(desc(reports.createdAt), desc(reports.id))
        .limit(REUSE_CANDIDATES);
    },

    /**
     * Whether the account has a final (not provisional) report of exactly this month that is
     * pending or ready: what the monthly schedule does not generate again.
     */
    async hasFinalReport(key: ReportKey): Promise<boolean> {
      const [row] = await db
        .select({ id: reports.id })
        .from(reports)
        .where(
          and(
            ...sameReport(key),
            eq(reports.provisional, false),
            inArray(reports.status, ['pending', 'ready']),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Adds the schedules not there yet, in one statement; returns the municipalities added. */
    async addSchedules(keys: ReportScheduleKey[], now: Date): Promise<string[]> {
      if (keys.length === 0) return [];
      const added = await db
        .insert(reportSchedules)
        .values(keys.map((k) => ({ ...k, createdAt: now })))
        .onConflictDoNothing()
        .returning({ municipioId: reportSchedules.municipioId });
      return added.map((r) => r.municipioId);
    },

    /** Every schedule, or one account's, by account, municipality, format and language. */
    async listSchedules(accountId?: string): Promise<ReportScheduleRow[]> {
      return db
        .select()
        .from(reportSchedules)
        .where(accountId === undefined ? undefined : eq(reportSchedules.accountId, accountId))
        .orderBy(asc(reportSchedules.accountId), asc(reportSchedules.municipioId), asc(reportSchedules.format), asc(reportSchedules.lang));
    },

    /** Removes the account's schedules matching the filter (every municipality, format or language when absent); returns those removed. */
    async removeSchedules(accountId: string, filter: { municipios?: string[]; format?: ReportRow['format']; lang?: ReportRow['lang'] }): Promise<ReportScheduleRow[]> {
      return db
        .delete(reportSchedules)
        .where(
          and(
            eq(reportSchedules.accountId, accountId),
            filter.municipios ? inArray(reportSchedules.municipioId, filter.municipios) : undefined,
            filter.format ? eq(reportSchedules.format, filter.format) : undefined,
            filter.lang ? eq(reportSchedules.lang, filter.lang) : undefined,
          ),
        )
        .returning();
    },

    /** The account's reports, newest first, and their total. */
    async listForAccount(accountId: string, page: { limit: number; offset: number }): Promise<{ total: number; rows: ReportRow[] }> {
      const [totals] = await db.select({ n: count() }).from(reports).where(eq(reports.accountId, accountId));
      const rows = await db
        .select()
        .from(reports)
        .where(eq(reports.accountId, accountId))
        .orderBy(desc(reports.createdAt), desc(reports.id))
        .limit(page.limit)
        .offset(page.offset);
      return { total: totals?.n ?? 0, rows };
    },

    /**
     * Retention: the reports expired at `now` that still have a file, by id after `afterId`
     * (keyset pages, so a file that cannot be removed is not picked again in the same run).
     */
    async expiredWithFiles(now: Date, afterId: string | null, limit: number): Promise<{ id: string; fileKey: string }[]> {
      const rows = await db
        .select({ id: reports.id, fileKey: reports.fileKey })
        .from(reports)
        .where(and(lte(reports.expiresAt, now), isNotNull(reports.fileKey), afterId === null ? undefined : gt(reports.id, afterId)))
        .orderBy(asc(reports.id))
        .limit(limit);
      return rows as { id: string; fileKey: string }[];
    },

    /** Retention: these expired reports no longer have a file (the rows, their size and digest stay). */
    async forgetFiles(ids: string[], now: Date): Promise<number> {
      if (ids.length === 0) return 0;
      const done = await db
        .update(reports)
        .set({ fileKey: null })
        .where(and(inArray(reports.id, ids), lte(reports.expiresAt, now)))
        .returning({ id: reports.id });
      return done.length;
    },

    /** pending → ready with its file; returns false when the row was not pending (already finished by a duplicate run). */
    async markReady(id: string, file: { fileKey: string; sizeBytes: number; sha256: string }, now: Date): Promise<boolean> {
      const done = await db
        .update(reports)
        .set({ status: 'ready', ...file, error: null, finishedAt: now })
        .where(and(eq(reports.id, id), eq(reports.status, 'pending')))
        .returning({ id: reports.id });
      return done.length === 1;
    },

    /** pending → failed with the reason; a ready report is never turned into a failed one. */
    async markFailed(id: string, error: string, now: Date): Promise<void> {
      await db
        .update(reports)
        .set({ status: 'failed', error, finishedAt: now })
        .where(and(eq(reports.id, id), eq(reports.status, 'pending')));
    },
  };
}

export type ReportsRepository = ReturnType<typeof createReportsRepository>;
