import { z } from 'zod';
import { createJobRegistry, defineJob, type JobHandlers, type JobHandlersOf } from '@firma-riesgo/service-kit';

/**
 * Fans an outbox event out to the tenant's subscribed endpoints (one delivery each). On
 * the main esign queue: database work only, quick.
 */
export const dispatchWebhookEventJob = defineJob({
  name: 'webhook.dispatch',
  schema: z.object({ eventId: z.uuid() }),
  attempts: 8,
  backoff: { type: 'exponential', delayMs: 2_000 },
  dedupeId: (p) => `whdispatch-${p.eventId}`,
  removeOnComplete: true,
});

/**
 * One HTTP attempt of a delivery. Its own queue (`esign-webhooks`), so a slow or dead
 * receiver never delays signing or emails. The retry schedule of failed attempts is the
 * delivery's (WEBHOOK_RETRY_SCHEDULE), each retry a new delayed job; the job's own
 * attempts only cover infrastructure failures (database down).
 */
export const deliverWebhookJob = defineJob({
  name: 'webhook.deliver',
  schema: z.object({ deliveryId: z.uuid() }),
  attempts: 5,
  backoff: { type: 'exponential', delayMs: 5_000 },
  removeOnComplete: true,
  timeoutMs: 120_000,
});

export const webhookDeliveryJobs = createJobRegistry([deliverWebhookJob]);
export type WebhookDeliveryJobs = typeof webhookDeliveryJobs;
export const WEBHOOK_QUEUE = 'esign-webhooks';

/** The `webhook.dispatch` handler (main esign queue), from the webhook delivery. */
export function webhookDispatchJobHandlers(delivery: { dispatch(eventId: string): Promise<unknown> }): JobHandlersOf<typeof dispatchWebhookEventJob> {
  return { 'webhook.dispatch': (payload) => delivery.dispatch(payload.eventId) };
}

/** The handlers of the `esign-webhooks` queue, from the webhook delivery. */
export function webhookDeliveryJobHandlers(delivery: { deliver(deliveryId: string): Promise<unknown> }): JobHandlers<WebhookDeliveryJobs> {
  return { 'webhook.deliver': (payload) => delivery.deliver(payload.deliveryId) };
}
