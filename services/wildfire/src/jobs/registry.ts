import { createJobRegistry, storageSweepJob, storageSweepSchedules, type BlobStore, type JobSchedule } from '@firma-riesgo/service-kit';
import { SCHEDULE_TIME_ZONE, type WildfireConfig } from '../config';
import { generateReportJob, reportRetentionJob, scheduledReportsJob } from '../reports/jobs';
import { touchTokenJob } from '../tokens/jobs';

/** Every job wildfire runs. Adding a job here without a handler stops the worker from starting. */
export const wildfireJobs = createJobRegistry([touchTokenJob, generateReportJob, reportRetentionJob, scheduledReportsJob, storageSweepJob]);
export type WildfireJobs = typeof wildfireJobs;
export const WILDFIRE_QUEUE = 'wildfire';

/**
 * The repeatable jobs, in Madrid time: retention daily, the report schedule monthly; with
 * WILDFIRE_STORAGE=postgres, the orphan-chunk sweep hourly. Declared by the processes that run jobs.
 */
export function wildfireSchedules(config: Pick<WildfireConfig, 'reports'>, files: Pick<BlobStore, 'kind'>): JobSchedule<WildfireJobs>[] {
  return [
    ...storageSweepSchedules(files),
    { name: 'report.retention', repeat: { pattern: config.reports.retentionCron, tz: SCHEDULE_TIME_ZONE }, payload: {} },
    { name: 'report.scheduled', repeat: { pattern: config.reports.scheduleCron, tz: SCHEDULE_TIME_ZONE }, payload: {} },
  ];
}
