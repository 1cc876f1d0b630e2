import { createJobRegistry, storageSweepJob, storageSweepJobHandlers, storageSweepSchedules, type JobHandlers, type ServiceSchedule } from '@firma-riesgo/service-kit';
import { alertJobHandlers, alertJobSchedules, deliverAlertJob, resumeAlertDeliveriesJob } from '../alerts/jobs';
import { aemetForecastJob, aemetJobHandlers, aemetJobSchedules, aemetObservationsJob } from '../aemet/jobs';
import type { WildfireConfig } from '../config';
import { generateReportJob, reportJobHandlers, reportJobSchedules, reportRetentionJob, scheduledReportsJob } from '../reports/jobs';
import { tokenJobHandlers, touchTokenJob } from '../tokens/jobs';

export const WILDFIRE_QUEUE = 'wildfire';

/**
 * Every job wildfire runs, collected from the features' `jobs.ts` (each defines its jobs,
 * their handlers and their schedules). A job without a handler stops the worker from starting.
 */
export const wildfireJobs = createJobRegistry([touchTokenJob, generateReportJob, reportRetentionJob, scheduledReportsJob, storageSweepJob, aemetObservationsJob, aemetForecastJob, deliverAlertJob, resumeAlertDeliveriesJob]);
export type WildfireJobs = typeof wildfireJobs;

export function wildfireJobHandlers(features: {
  tokens: Parameters<typeof tokenJobHandlers>[0];
  reports: Parameters<typeof reportJobHandlers>[0];
  storageSweep: Parameters<typeof storageSweepJobHandlers>[0];
  aemet: Parameters<typeof aemetJobHandlers>[0];
  alerts: Parameters<typeof alertJobHandlers>[0];
}): JobHandlers<WildfireJobs> {
  return {
    ...tokenJobHandlers(features.tokens),
    ...reportJobHandlers(features.reports),
    ...storageSweepJobHandlers(features.storageSweep),
    ...aemetJobHandlers(features.aemet),
    ...alertJobHandlers(features.alerts),
  };
}

/**
 * The repeatable jobs, in Madrid time: retention daily, the report schedule monthly; with
 * WILDFIRE_STORAGE=postgres, the orphan-chunk sweep hourly; with AEMET_API_KEY, the AEMET
 * observations poll (WILDFIRE_AEMET_OBS_EVERY) and the daily forecast run (WILDFIRE_AEMET_FORECAST_CRON); every minute, the
 * alert deliveries whose job was lost. Declared by the processes that run jobs.
 */
export function wildfireSchedules(config: Pick<WildfireConfig, 'reports' | 'aemet'>, files: Parameters<typeof storageSweepSchedules>[0]): ServiceSchedule<WildfireJobs>[] {
  return [...storageSweepSchedules(files), ...reportJobSchedules(config.reports), ...aemetJobSchedules(config), ...alertJobSchedules()];
}
