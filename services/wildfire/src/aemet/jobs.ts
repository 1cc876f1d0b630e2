import { z } from 'zod';
import { defineJob, type JobHandlersOf, type JobRegistry, type ServiceSchedule } from '@firma-riesgo/service-kit';
import type { WildfireConfig } from '../config';

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

export type AemetJobs = typeof aemetObservationsJob;

export function aemetJobHandlers(observations: { poll(): Promise<unknown> } | null): JobHandlersOf<AemetJobs> {
  return {
    // Without a key the job is never scheduled; one queued by hand does nothing.
    'aemet.observations': async () => (observations ? observations.poll() : null),
  };
}

export function aemetJobSchedules(config: Pick<WildfireConfig, 'aemet'>): ServiceSchedule<JobRegistry<AemetJobs>>[] {
  if (!config.aemet.apiKey) return [];
  return [{ name: 'aemet.observations', repeat: { everyMs: config.aemet.observationsEveryMs }, payload: {}, atStart: true }];
}
