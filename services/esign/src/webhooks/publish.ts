import type { JobEnqueuer, Logger } from '@firma-riesgo/service-kit';
import type { dispatchWebhookEventJob } from './jobs';
import type { WebhookDelivery } from './delivery';
import type { OutboxEvent } from './events-repository';

/**
 * After the transaction that wrote the events commits: one `webhook.dispatch` each. A
 * crash before this loses nothing; the recovery sweep finds undispatched events.
 */
export async function publishWebhookEvents(jobs: JobEnqueuer<typeof dispatchWebhookEventJob>, events: readonly (string | { id: string })[]): Promise<void> {
  for (const event of events) await jobs.enqueue('webhook.dispatch', { eventId: typeof event === 'string' ? event : event.id });
}

/**
 * The same, with the fan-out done here instead of in a `webhook.dispatch` job: what that job
 * does (`WebhookDelivery.dispatch`: the deliveries and their jobs on the webhooks queue,
 * the event marked dispatched), without the queue's round trips, which cost more than the
 * fan-out itself. For the confirmation, the busiest producer. An event whose fan-out fails
 * (or a crash before it) stays undispatched in the outbox, where the recovery sweep finds it
 * and gives it its job, as it does for every producer.
 */
export async function dispatchWebhookEventsNow(delivery: Pick<WebhookDelivery, 'dispatch'>, events: readonly OutboxEvent[], logger: Logger): Promise<void> {
  for (const event of events) {
    try {
      await delivery.dispatch(event);
    } catch (err) {
      logger.warn({ eventId: event.id, err: (err as Error).message }, 'webhook fan-out failed; the recovery sweep gives it its job');
    }
  }
}
