/**
 * The rules of monthly reports, as pure functions of the request, the row and `now`:
 * which months may be asked for, which are provisional, which days a month covers,
 * when a report expires, which finished report a request reuses and what a download answers.
 */
import { UnprocessableError } from '../errors';
import { todayInSpain } from '../calendar';
import { EARLIEST_DATE } from '../readings/date-range';

/** The first month served: the month of the earliest data. */
export const EARLIEST_PERIODO = EARLIEST_DATE.slice(0, 7);
/** Interface §8: reports are kept 12 months. */
export const RETENTION_MONTHS = 12;

/** 422 DATE_OUT_OF_RANGE unless `periodo` (well-formed YYYY-MM) is from 2015-01 to the current month in Spain. */
export function requireServedPeriodo(periodo: string, today: string): void {
  if (periodo < EARLIEST_PERIODO) {
    throw new UnprocessableError(`periodo ${periodo} is before ${EARLIEST_PERIODO}, the first month with data`, 'DATE_OUT_OF_RANGE', { param: 'periodo' });
  }
  if (periodo > today.slice(0, 7)) {
    throw new UnprocessableError(`periodo ${periodo} is in the future (today is ${today} in Spain)`, 'DATE_OUT_OF_RANGE', { param: 'periodo' });
  }
}

/** The month is not over yet (Spanish calendar): its report is provisional. */
export function isProvisional(periodo: string, today: string): boolean {
  return periodo === today.slice(0, 7);
}

/** The last day of a YYYY-MM month. */
export function lastDayOf(periodo: string): string {
  const [year, month] = periodo.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

/** The days a report of `periodo` covers: the whole month, or up to today for the current one. */
export function monthDays(periodo: string, today: string): { from: string; to: string } {
  const last = lastDayOf(periodo);
  return { from: `${periodo}-01`, to: last < today ? last : today };
}

/** `createdAt` plus 12 calendar months (UTC); the 29th–31st fall back to the month's last day. */
export function expiryOf(createdAt: Date): Date {
  const d = new Date(createdAt.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + RETENTION_MONTHS);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A test token's report expires `days` days after it was created (WILDFIRE_TEST_REPORT_RETENTION_DAYS), not 12 months. */
export function testExpiryOf(createdAt: Date, days: number): Date {
  return new Date(createdAt.getTime() + days * DAY_MS);
}

/**
 * When `report.retention` removes a test report at `now`: its own expiry, or `days` after
 * it was created for one generated under a longer retention (before test reports had days).
 */
export function testReportCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** How long a report job holds its account's render slot at most: a killed worker's slot frees itself after it. */
export function renderLeaseUntil(now: Date, jobTimeoutMs: number): Date {
  return new Date(now.getTime() + jobTimeoutMs);
}

export type DownloadState = 'expired' | 'pending' | 'failed' | 'ready';

/** What `GET /api/v1/reports/{id}` answers for a row of the caller's account: expiry first, then its status. */
export function downloadState(report: { status: 'pending' | 'ready' | 'failed'; expiresAt: Date }, now: Date): DownloadState {
  if (now.getTime() >= report.expiresAt.getTime()) return 'expired';
  return report.status;
}

/** 00:00 UTC of `now`'s UTC day: the first instant from which a finished report is reused. */
export function reuseSince(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Whether a request at `now` reuses this report of the same account, municipality, month,
 * format, language and source (the caller matches those): it is ready with its file, not
 * expired, and was created on the same UTC day, not after `now`. A provisional report must
 * also be of the same Spanish day, so it never leaves out a day that has begun in Spain.
 */
export function isReusable(
  report: { status: 'pending' | 'ready' | 'failed'; fileKey: string | null; provisional: boolean; createdAt: Date; expiresAt: Date },
  now: Date,
): boolean {
  if (report.status !== 'ready' || report.fileKey === null) return false;
  if (downloadState(report, now) !== 'ready') return false;
  const created = report.createdAt.getTime();
  if (created < reuseSince(now).getTime() || created > now.getTime()) return false;
  return !report.provisional || todayInSpain(report.createdAt) === todayInSpain(now);
}
