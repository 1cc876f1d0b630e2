import { z } from 'zod';
import { defineJob, type JobHandlersOf, type JobRegistry, type ServiceSchedule } from '@firma-riesgo/service-kit';
import { SCHEDULE_TIME_ZONE, type WildfireConfig } from '../config';

/**
 * Polls AEMET's conventional observations and ingests each day whose noon has passed
 * (ingest-observations.ts). Repeatable (WILDFIRE_AEMET_OBS_EVERY, default hourly), declared
 * only when AEMET_API_KEY is set; one instance polls at a time (an advisory lock), and a
 * second run finds the day already ingested.
 */
export const aemetObservationsJob = defineJob({
  name: 'aemet.observations',
  schema: z.object({}),
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 60_000 },
  removeOnComplete: 30,
  timeoutMs: 30 * 60_000,
});

/**
 * The day's forecast run for every municipality (ingest-forecast.ts), paced to AEMET's
 * request limit, so it may take hours: a stopped run is resumed by the next attempt or run
 * the same day. Repeatable (WILDFIRE_AEMET_FORECAST_CRON, Madrid time), only with a key.
 */
export const aemetForecastJob = defineJob({
  name: 'aemet.forecast',
  schema: z.object({}),
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 5 * 60_000 },
  removeOnComplete: 30,
  timeoutMs: 23 * 3_600_000,
});

export type AemetJobs = typeof aemetObservationsJob | typeof aemetForecastJob;

export function aemetJobHandlers(aemet: { observations: { poll(): Promise<unknown> } | null; forecast: { daily(): Promise<unknown> } | null }): JobHandlersOf<AemetJobs> {
  return {
    // Without a key the jobs are never scheduled; one queued by hand does nothing.
    'aemet.observations': async () => (aemet.observations ? aemet.observations.poll() : null),
    'aemet.forecast': async () => (aemet.forecast ? aemet.forecast.daily() : null),
  };
}

export function aemetJobSchedules(config: Pick<WildfireConfig, 'aemet'>): ServiceSchedule<JobRegistry<AemetJobs>>[] {
  if (!config.aemet.apiKey) return [];
  return [
    { name: 'aemet.observations', repeat: { everyMs: config.aemet.observationsEveryMs }, payload: {}, atStart: true },
    { name: 'aemet.forecast', repeat: { pattern: config.aemet.forecastCron, tz: SCHEDULE_TIME_ZONE }, payload: {} },
  ];
}
