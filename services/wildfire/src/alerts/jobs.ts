import { z } from 'zod';
import { defineJob, type JobEnqueuer, type JobHandlersOf, type JobRegistry, type ServiceSchedule } from '@firma-riesgo/service-kit';

/**
 * One HTTP attempt of an alert's webhook delivery. The retry schedule of failed attempts is
 * the delivery's (WILDFIRE_WEBHOOK_RETRY_SCHEDULE), each retry a new delayed job; the job's
 * own attempts only cover infrastructure failures (database down).
 */
export const deliverAlertJob = defineJob({
  name: 'alert.deliver',
  schema: z.object({ deliveryId: z.uuid() }),
  attempts: 5,
  backoff: { type: 'exponential', delayMs: 5_000 },
  removeOnComplete: true,
  timeoutMs: 120_000,
});

/** Every minute: open deliveries whose job was lost (a crash between the commit and the enqueue, Redis flushed) are enqueued again. */
export const resumeAlertDeliveriesJob = defineJob({
  name: 'alert.resume',
  schema: z.object({}),
  attempts: 1,
  removeOnComplete: true,
});

export type AlertJobs = typeof deliverAlertJob | typeof resumeAlertDeliveriesJob;
export type AlertDeliveryQueue = JobEnqueuer<typeof deliverAlertJob>;

export function alertJobHandlers(alerts: { deliver(deliveryId: string): Promise<unknown>; resumeInterrupted(): Promise<unknown> }): JobHandlersOf<AlertJobs> {
  return {
    'alert.deliver': (payload) => alerts.deliver(payload.deliveryId),
    'alert.resume': () => alerts.resumeInterrupted(),
  };
}

export const ALERT_RESUME_EVERY_MS = 60_000;

export function alertJobSchedules(): ServiceSchedule<JobRegistry<AlertJobs>>[] {
  return [{ name: 'alert.resume', repeat: { everyMs: ALERT_RESUME_EVERY_MS }, payload: {} }];
}
