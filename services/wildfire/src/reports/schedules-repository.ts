import { and, asc, eq, inArray } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { reportSchedules, type reports } from './tables';

export type ReportScheduleRow = typeof reportSchedules.$inferSelect;
export type ReportScheduleKey = Pick<ReportScheduleRow, 'accountId' | 'municipioId' | 'format' | 'lang'>;
type ReportRow = typeof reports.$inferSelect;

/** The queries of the monthly report schedules (the `report_schedules` table); part of the reports repository. */
export function createReportSchedulesQueries(db: WildfireDb) {
  return {
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
  };
}
