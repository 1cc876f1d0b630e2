import { and, count, desc, eq, gte, isNotNull, lte } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { reports } from './tables';

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = Omit<typeof reports.$inferInsert, 'status' | 'sizeBytes' | 'sha256' | 'fileKey' | 'error' | 'finishedAt'>;

/** How many same-day reports reuse looks at: the newest usually wins; the others cover a lost file. */
const REUSE_CANDIDATES = 3;

/** The only code that touches the reports table. */
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
      key: Pick<ReportRow, 'accountId' | 'municipioId' | 'periodo' | 'format' | 'lang' | 'source'>,
      since: Date,
      now: Date,
    ): Promise<ReportRow[]> {
      return db
        .select()
        .from(reports)
        .where(
          and(
            eq(reports.accountId, key.accountId),
            eq(reports.municipioId, key.municipioId),
            eq(reports.periodo, key.periodo),
            eq(reports.format, key.format),
            eq(reports.lang, key.lang),
            eq(reports.source, key.source),
            eq(reports.status, 'ready'),
            isNotNull(reports.fileKey),
            gte(reports.createdAt, since),
            lte(reports.createdAt, now),
          ),
        )
        .orderBy(desc(reports.createdAt), desc(reports.id))
        .limit(REUSE_CANDIDATES);
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
