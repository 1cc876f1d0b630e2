import { z } from 'zod';
import { defineJob } from '@firma-riesgo/service-kit';

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
