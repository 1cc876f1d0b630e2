import { z } from 'zod';
import { defineJob, type JobContext, type JobEnqueuer, type JobHandlersOf, type JobLogger, type JobQueue, type JobRegistry, type ServiceSchedule } from '@firma-riesgo/service-kit';
import { SCHEDULE_TIME_ZONE, type WildfireConfig } from '../config';

/**
 * Generates one report: reads its row, builds the file and stores it. The payload is
 * the report id only (the row holds the rest). One job per report (its id), and the
 * handler finishes a row only while it is pending, so a duplicate or retried job does
 * no harm. A job that fails for good leaves the row `failed` and no file.
 */
export const generateReportJob = defineJob({
  name: 'report.generate',
  schema: z.object({ reportId: z.uuid() }),
  attempts: 2,
  backoff: { type: 'fixed', delayMs: 1000 },
  dedupeId: (p) => `report-${p.reportId}`,
  timeoutMs: 120_000,
});

/** The options the periodic report jobs share: no payload, three tries a minute and more apart, up to 30 minutes a run. */
const PERIODIC_JOB = {
  schema: z.object({}),
  attempts: 3,
  backoff: { type: 'exponential' as const, delayMs: 60_000 },
  removeOnComplete: 30,
  timeoutMs: 30 * 60_000,
};

/**
 * Retention (interface §8, 12 months): deletes the files of reports whose `expires_at`
 * has passed and keeps their rows, so their URLs answer 410 REPORT_EXPIRED. Repeatable
 * (daily, `WILDFIRE_REPORT_RETENTION_CRON`); idempotent, so a retry or a second run
 * only finds less to do.
 */
export const reportRetentionJob = defineJob({
  name: 'report.retention',
  ...PERIODIC_JOB,
});

/**
 * The monthly schedule (`wildfire reports schedule`): on the 1st, the previous month's
 * report of every scheduled municipality, each through `report.generate`. Repeatable
 * (`WILDFIRE_REPORT_SCHEDULE_CRON`); a report that exists already is skipped, so a
 * second run creates none.
 */
export const scheduledReportsJob = defineJob({
  name: 'report.scheduled',
  ...PERIODIC_JOB,
});

export type ReportJobs = typeof generateReportJob | typeof reportRetentionJob | typeof scheduledReportsJob;

/** What the reports service queues: `report.generate`, and waits for it. */
export type ReportGenerationQueue = JobEnqueuer<typeof generateReportJob> & Pick<JobQueue<JobRegistry<typeof generateReportJob>>, 'enqueueAndWait'>;

/** The handlers of the report jobs, from the reports use cases. */
export function reportJobHandlers(reports: {
  generateReport: (reportId: string, ctx: JobContext) => Promise<unknown>;
  purgeExpiredFiles: (logger: JobLogger) => Promise<unknown>;
  runScheduledReports: (logger: JobLogger) => Promise<unknown>;
}): JobHandlersOf<ReportJobs> {
  return {
    'report.generate': (payload, ctx) => reports.generateReport(payload.reportId, ctx),
    'report.retention': (_payload, ctx) => reports.purgeExpiredFiles(ctx.logger),
    'report.scheduled': (_payload, ctx) => reports.runScheduledReports(ctx.logger),
  };
}

/** In Madrid time: retention daily (WILDFIRE_REPORT_RETENTION_CRON), the report schedule monthly (WILDFIRE_REPORT_SCHEDULE_CRON). */
export function reportJobSchedules(config: Pick<WildfireConfig['reports'], 'retentionCron' | 'scheduleCron'>): ServiceSchedule<JobRegistry<ReportJobs>>[] {
  return [
    { name: 'report.retention', repeat: { pattern: config.retentionCron, tz: SCHEDULE_TIME_ZONE }, payload: {} },
    { name: 'report.scheduled', repeat: { pattern: config.scheduleCron, tz: SCHEDULE_TIME_ZONE }, payload: {} },
  ];
}
