import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, lte, ne, or, sql } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { createReportSchedulesQueries } from './schedules-repository';
import { reportRenderSlots, reports } from './tables';

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = Omit<typeof reports.$inferInsert, 'status' | 'sizeBytes' | 'sha256' | 'fileKey' | 'error' | 'finishedAt'>;
/** What `markReady` stores with a finished report. */
export type ReportFileFacts = { fileKey: string; sizeBytes: number; sha256: string };
/** A test report on its way out (replaced, or past its retention): its row and, if any, its file. */
export type DroppedReport = { id: string; fileKey: string | null };
/** What a report job's claim of a render slot of its account got. */
export type RenderSlot = 'claimed' | 'busy' | 'gone';

/** How many same-day reports reuse looks at: the newest usually wins; the others cover a lost file. */
const REUSE_CANDIDATES = 3;

/** The only code that touches the reports, report_render_slots and report_schedules tables. */
/** What makes two reports the same request: account, municipality, period, format, language and kind of data. */
type ReportKey = Pick<ReportRow, 'accountId' | 'municipioId' | 'periodo' | 'format' | 'lang' | 'source'>;
/** Test reports one account keeps of a municipality and month: one (the last finished). */
const sameTestGroup = (key: Pick<ReportRow, 'accountId' | 'municipioId' | 'periodo'>) => [
  eq(reports.accountId, key.accountId),
  eq(reports.municipioId, key.municipioId),
  eq(reports.periodo, key.periodo),
  eq(reports.source, 'synthetic'),
];
/** The predicate of `reports_test_pending_key`: a test token's pending reports are unique per request. */
const TEST_PENDING = sql`status = 'pending' and source = 'synthetic'`;
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
    ...createReportSchedulesQueries(db),

    async insert(report: NewReport): Promise<ReportRow> {
      const [row] = await db
        .insert(reports)
        .values({ ...report, status: 'pending' })
        .returning();
      return row!;
    },

    /**
     * A test token's report: inserts it pending, or, when the identical request is pending
     * already (`reports_test_pending_key`), returns that one (`joined`) and inserts nothing.
     * Atomic across processes: concurrent requests end up with one row.
     */
    async insertTestOrJoin(report: NewReport): Promise<{ row: ReportRow; joined: boolean }> {
      const key = { ...report, source: 'synthetic' as const };
      // A pending one that finishes between the insert and the select: insert again (rarely more than once).
      for (let round = 0; round < 5; round += 1) {
        const [inserted] = await db
          .insert(reports)
          .values({ ...key, status: 'pending' })
          .onConflictDoNothing({ target: [reports.accountId, reports.municipioId, reports.periodo, reports.format, reports.lang], where: TEST_PENDING })
          .returning();
        if (inserted) return { row: inserted, joined: false };
        const [pending] = await db
          .select()
          .from(reports)
          .where(and(...sameReport(key), eq(reports.status, 'pending')))
          .limit(1);
        if (pending) return { row: pending, joined: true };
      }
      throw new Error('could not insert or join a pending test report');
    },

    /**
     * Takes one of the account's `cap` render slots for a pending report until `leaseUntil`:
     * `busy` when `cap` other pending reports of the account hold an unexpired one, `gone`
     * when the report is no longer pending. Serialised per account by a transaction-scoped
     * advisory lock, so two workers never both take the last slot. Reads the report row
     * without locking it.
     */
    async claimRenderSlot(report: Pick<ReportRow, 'id' | 'accountId'>, cap: number, now: Date, leaseUntil: Date): Promise<RenderSlot> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wildfire:report-render:${report.accountId}`}))`);
        // Leases run out (a killed worker's) or outlive their report (finished, deleted): gone.
        await tx.delete(reportRenderSlots).where(and(eq(reportRenderSlots.accountId, report.accountId), lte(reportRenderSlots.until, now)));
        const [held] = await tx
          .select({ n: count() })
          .from(reportRenderSlots)
          .innerJoin(reports, eq(reports.id, reportRenderSlots.reportId))
          .where(and(eq(reportRenderSlots.accountId, report.accountId), ne(reportRenderSlots.reportId, report.id), eq(reports.status, 'pending')));
        if ((held?.n ?? 0) >= cap) return 'busy';
        const [own] = await tx.select({ status: reports.status }).from(reports).where(eq(reports.id, report.id));
        if (own?.status !== 'pending') return 'gone';
        await tx
          .insert(reportRenderSlots)
          .values({ reportId: report.id, accountId: report.accountId, until: leaseUntil })
          .onConflictDoUpdate({ target: reportRenderSlots.reportId, set: { until: leaseUntil } });
        return 'claimed';
      });
    },

    /** Gives the render slot back: the report is finished, or an attempt failed and will be retried. */
    async releaseRenderSlot(id: string): Promise<void> {
      await db.delete(reportRenderSlots).where(eq(reportRenderSlots.reportId, id));
    },

    /**
     * A test report pending → ready with its file, and in the same transaction the account's
     * other finished test reports of the municipality and month expire at `now` (their URLs
     * answer 410 until they are dropped, then 404). Returns them, to drop their files and rows;
     * `done` false (and nothing replaced) when the report was not pending.
     */
    async markTestReady(report: Pick<ReportRow, 'id' | 'accountId' | 'municipioId' | 'periodo'>, file: ReportFileFacts, now: Date): Promise<{ done: boolean; replaced: DroppedReport[] }> {
      return db.transaction(async (tx) => {
        const done = await tx
          .update(reports)
          .set({ status: 'ready', ...file, error: null, finishedAt: now })
          .where(and(eq(reports.id, report.id), eq(reports.status, 'pending')))
          .returning({ id: reports.id });
        if (done.length === 0) return { done: false, replaced: [] };
        const replaced = await tx
          .update(reports)
          .set({ expiresAt: sql`least(${reports.expiresAt}, ${now})` })
          .where(and(...sameTestGroup(report), ne(reports.status, 'pending'), ne(reports.id, report.id)))
          .returning({ id: reports.id, fileKey: reports.fileKey });
        return { done: true, replaced };
      });
    },

    /**
     * Retention of test reports: those expired at `now` or created before `createdBefore`
     * (kept under a longer retention before), any status, by id after `afterId`.
     */
    async expiredTestReports(now: Date, createdBefore: Date, afterId: string | null, limit: number): Promise<DroppedReport[]> {
      return db
        .select({ id: reports.id, fileKey: reports.fileKey })
        .from(reports)
        .where(
          and(
            eq(reports.source, 'synthetic'),
            or(lte(reports.expiresAt, now), lte(reports.createdAt, createdBefore)),
            afterId === null ? undefined : gt(reports.id, afterId),
          ),
        )
        .orderBy(asc(reports.id))
        .limit(limit);
    },

    /** Deletes these test reports' rows, if they are still expired at `now` (their files are gone already). */
    async deleteExpiredTestReports(ids: string[], now: Date, createdBefore: Date): Promise<number> {
      if (ids.length === 0) return 0;
      const gone = await db
        .delete(reports)
        .where(and(inArray(reports.id, ids), eq(reports.source, 'synthetic'), or(lte(reports.expiresAt, now), lte(reports.createdAt, createdBefore))))
        .returning({ id: reports.id });
      return gone.length;
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
     * Retention: the live reports expired at `now` that still have a file, by id after `afterId`
     * (keyset pages, so a file that cannot be removed is not picked again in the same run).
     */
    async expiredWithFiles(now: Date, afterId: string | null, limit: number): Promise<{ id: string; fileKey: string }[]> {
      const rows = await db
        .select({ id: reports.id, fileKey: reports.fileKey })
        .from(reports)
        .where(and(eq(reports.source, 'observed'), lte(reports.expiresAt, now), isNotNull(reports.fileKey), afterId === null ? undefined : gt(reports.id, afterId)))
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
    async markReady(id: string, file: ReportFileFacts, now: Date): Promise<boolean> {
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
