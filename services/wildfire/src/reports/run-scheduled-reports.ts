/**
 * The `report.scheduled` job (repeatable, on the 1st of each month, Madrid time): for every
 * schedule, the previous month's report of the account, through the same path as POST
 * /api/v1/report (a pending row, then `report.generate`). A report the account already
 * has for that month is skipped, so a second run creates none; a schedule its account's
 * live tokens may no longer read (revoked, expired or narrowed) is skipped too, as is a
 * month with no stored reading. One instance at a time (advisory lock); logs counts only.
 */
import type { JobLogger, LockedRun } from '@firma-riesgo/service-kit';
import { todayInSpain } from '../calendar';
import type { TokensService } from '../tokens/service';
import type { ReportsRepository } from './repository';
import { schedulableMunicipios } from './report-schedules';
import type { ReportsService, ScheduledOutcome } from './service';

export interface RunScheduledReportsDeps {
  repo: Pick<ReportsRepository, 'listSchedules'>;
  tokens: Pick<TokensService, 'list'>;
  reports: Pick<ReportsService, 'createScheduled'>;
  clock: () => Date;
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
}

export interface ScheduledRunSummary {
  /** false: another instance was running the schedule; this run did nothing. */
  ran: boolean;
  /** The month reported (`YYYY-MM`): the one before the run's day in Spain. */
  periodo: string;
  created: number;
  /** Already generated (pending or ready) for the account. */
  existing: number;
  /** No reading stored for the month. */
  no_data: number;
  /** The account's active live tokens no longer cover the municipality. */
  not_allowed: number;
}

/** The month before `today` (YYYY-MM-DD). */
export function previousMonth(today: string): string {
  const [year, month] = today.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(year, month - 2, 1));
  return d.toISOString().slice(0, 7);
}

export function createRunScheduledReports(deps: RunScheduledReportsDeps) {
  async function run(periodo: string, now: Date): Promise<Omit<ScheduledRunSummary, 'ran' | 'periodo'>> {
    const counts: Record<ScheduledOutcome | 'not_allowed', number> = { created: 0, exists: 0, no_data: 0, not_allowed: 0 };
    const schedules = await deps.repo.listSchedules();
    if (schedules.length === 0) return { created: 0, existing: 0, no_data: 0, not_allowed: 0 };
    const tokens = await deps.tokens.list();
    const allowedByAccount = new Map<string, Set<string> | null>();
    for (const schedule of schedules) {
      if (!allowedByAccount.has(schedule.accountId)) {
        allowedByAccount.set(schedule.accountId, schedulableMunicipios(tokens.filter((t) => t.accountId === schedule.accountId), now));
      }
      const allowed = allowedByAccount.get(schedule.accountId)!;
      if (allowed !== null && !allowed.has(schedule.municipioId)) {
        counts.not_allowed += 1;
        continue;
      }
      counts[await deps.reports.createScheduled(schedule, periodo)] += 1;
    }
    return { created: counts.created, existing: counts.exists, no_data: counts.no_data, not_allowed: counts.not_allowed };
  }

  return async function runScheduledReports(logger: Pick<JobLogger, 'info'>): Promise<ScheduledRunSummary> {
    const now = deps.clock();
    const periodo = previousMonth(todayInSpain(now));
    const done = await deps.exclusive('wildfire:report-schedule', () => run(periodo, now));
    const summary = done.ran ? { ran: true, periodo, ...done.value } : { ran: false, periodo, created: 0, existing: 0, no_data: 0, not_allowed: 0 };
    logger.info(summary, done.ran ? 'generated the scheduled monthly reports' : 'the monthly report schedule is running elsewhere; skipped');
    return summary;
  };
}
