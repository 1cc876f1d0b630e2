import type { OutboundPolicy } from '@firma-riesgo/auth';
import type { JobQueue, Logger } from '@firma-riesgo/service-kit';
import type { EventData, OutboxEvent, WebhookEventsRepository } from './events-repository';
import type { DeliveryRow, WebhookDeliveriesRepository } from './deliveries-repository';
import type { MeterRepository } from '../metering/repository';
import type { WebhookDeliveryJobs } from './jobs';
import type { WebhookRow, WebhooksRepository } from './repository';
import { attemptResult, DISABLE_AFTER_FAILING_MS, keyedLimiter, sendSignedMessage, signingSecrets, type AttemptOutcome, type SecretBox, type WebhookMessage } from '@firma-riesgo/webhooks';

export { DISABLE_AFTER_FAILING_MS };
/** Work older than this without its job (lost in a crash) is picked up by the recovery sweep. */
const STRANDED_AFTER_MS = 60_000;
/** Attempts to one endpoint at once, per process: a slow receiver holds only its own slots. */
const PER_ENDPOINT_CONCURRENCY = 2;

export interface WebhookDeliveryDeps {
  webhooks: WebhooksRepository;
  events: WebhookEventsRepository;
  deliveries: WebhookDeliveriesRepository;
  /** The `esign-webhooks` queue. */
  queue: Pick<JobQueue<WebhookDeliveryJobs>, 'enqueue'>;
  secrets: SecretBox;
  tenantName: (tenantId: string) => Promise<string>;
  policy: OutboundPolicy;
  retrySchedule: number[];
  timeoutMs: number;
  userAgent: string;
  logger: Logger;
  /** Each attempt counts as a webhook delivery for billing. */
  meter: Pick<MeterRepository, 'add'>;
  meterDay: (at: Date) => string;
  clock?: () => Date;
}

export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const clock = deps.clock ?? (() => new Date());
  const perEndpoint = keyedLimiter(PER_ENDPOINT_CONCURRENCY);

  /** Sends one message to the endpoint, signed per Standard Webhooks (both secrets during a rotation). */
  async function send(webhook: WebhookRow, message: WebhookMessage): Promise<AttemptOutcome> {
    const now = clock();
    return sendSignedMessage(webhook.url, signingSecrets(webhook, deps.secrets.open, now), message, now, deps);
  }

  async function body(type: string, occurredAt: Date, tenantId: string, data: EventData): Promise<string> {
    return JSON.stringify({ type, timestamp: occurredAt.toISOString(), data: { ...data, tenant: await deps.tenantName(tenantId) } });
  }

  const deliverJobId = (d: Pick<DeliveryRow, 'id' | 'attempts'>, suffix = '') => `whdeliver-${d.id}-${d.attempts}${suffix}`;

  async function enqueueDelivery(d: DeliveryRow, suffix = ''): Promise<void> {
    const delayMs = Math.max(0, (d.nextAttemptAt?.getTime() ?? 0) - clock().getTime());
    await deps.queue.enqueue('webhook.deliver', { deliveryId: d.id }, { jobId: deliverJobId(d, suffix), delayMs });
  }

  /** After a delivery of a document is done, the next one of that document to the endpoint may go. */
  async function kickNext(d: DeliveryRow): Promise<void> {
    if (!d.documentId) return;
    const next = await deps.deliveries.nextOpen(d.webhookId, d.documentId);
    if (next) await enqueueDelivery(next);
  }

  async function disable(webhook: WebhookRow, reason: string): Promise<void> {
    await deps.webhooks.disable(webhook, reason, clock());
    deps.logger.warn({ webhookId: webhook.id, tenantId: webhook.tenantId, reason }, 'webhook endpoint disabled');
  }

  return {
    send,

    /** `webhook.dispatch`: one delivery per subscribed endpoint, each enqueued. Repeating it is harmless. */
    async dispatch(eventOrId: string | OutboxEvent): Promise<{ deliveries: number }> {
      // The row as recorded when the caller has it (the confirmation), read by id otherwise (the job).
      const event = typeof eventOrId === 'string' ? await deps.events.find(eventOrId) : eventOrId;
      if (!event) return { deliveries: 0 };
      const now = clock();
      const subscribers = await deps.webhooks.subscribers(event.tenantId, event.type);
      const rows = await deps.deliveries.createMany(
        subscribers.map((w) => ({ webhookId: w.id, eventSeq: event.seq, tenantId: event.tenantId, documentId: event.documentId, nextAttemptAt: now })),
      );
      await deps.events.markDispatched(event.id, now);
      for (const row of rows) if (row.status === 'pending' && row.attempts === 0) await enqueueDelivery(row);
      return { deliveries: rows.length };
    },

    /** `webhook.deliver`: one attempt, then the delivery's next state and, if any, its next job. */
    async deliver(deliveryId: string): Promise<'succeeded' | 'retrying' | 'exhausted' | 'skipped' | 'waiting'> {
      const delivery = await deps.deliveries.find(deliveryId);
      if (!delivery || delivery.status === 'succeeded' || delivery.status === 'exhausted') return 'skipped';
      const webhook = await deps.webhooks.find(delivery.webhookId);
      // A disabled endpoint keeps its open deliveries: re-enabled, the sweep sends them.
      if (!webhook || !webhook.active) return 'skipped';
      // A document's events reach an endpoint in the order they happened: the earlier
      // delivery, once done, enqueues this one (kickNext).
      if (delivery.documentId && ((await deps.deliveries.earlierOpen(delivery)) || (await deps.events.undispatchedBefore(delivery.documentId, delivery.eventSeq)))) {
        return 'waiting';
      }
      const event = (await deps.events.findBySeq(delivery.eventSeq))!;
      const message = { id: `msg_${delivery.id}`, body: await body(event.type, event.occurredAt, event.tenantId, event.data) };
      const outcome = await perEndpoint(webhook.id, () => send(webhook, message));
      const now = clock();
      // What a receiver answers about an erased document is not kept: it may quote the signee.
      const keepBody = !(delivery.documentId && (await deps.events.documentErased(delivery.documentId)));
      const attempt = { attemptedAt: now, statusCode: outcome.statusCode, error: outcome.error, durationMs: outcome.durationMs, responseBody: keepBody ? outcome.responseBody : null };
      const made = delivery.attempts + 1;
      await deps.meter.add(delivery.tenantId, deps.meterDay(now), 'webhook_deliveries');
      const result = attemptResult(outcome, made, deps.retrySchedule, now);
      if (result.status === 'succeeded') {
        await deps.deliveries.recordAttempt(delivery, attempt, { status: 'succeeded', nextAttemptAt: null });
        await deps.webhooks.markHealthy(webhook.id);
        await kickNext(delivery);
        return 'succeeded';
      }
      if (result.gone) {
        await deps.deliveries.recordAttempt(delivery, attempt, { status: 'exhausted', nextAttemptAt: null });
        await disable(webhook, 'The receiver answered 410 Gone');
        return 'exhausted';
      }
      const failingSince = await deps.webhooks.markFailing(webhook.id, now);
      await deps.deliveries.recordAttempt(delivery, attempt, { status: result.status, nextAttemptAt: result.nextAttemptAt });
      if (result.status === 'exhausted') await kickNext(delivery);
      else await enqueueDelivery({ ...delivery, attempts: made, nextAttemptAt: result.nextAttemptAt });
      if (now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
        await disable(webhook, `Every delivery failed for 5 days (since ${failingSince.toISOString()})`);
      }
      return result.status === 'exhausted' ? 'exhausted' : 'retrying';
    },

    /** A manual retry: the delivery is open again and sent at once, with the same `webhook-id`. */
    async retryNow(delivery: DeliveryRow): Promise<void> {
      const now = clock();
      await deps.deliveries.reopen(delivery.id, now);
      await enqueueDelivery({ ...delivery, status: 'pending', nextAttemptAt: now }, `-manual${now.getTime()}`);
    },

    /** The recovery sweep: events never fanned out, and open deliveries whose job was lost. */
    async resumeInterrupted(enqueueDispatch: (eventId: string) => Promise<unknown>): Promise<{ events: number; deliveries: number }> {
      const before = new Date(clock().getTime() - STRANDED_AFTER_MS);
      const eventIds = await deps.events.undispatchedIds(before);
      for (const eventId of eventIds) await enqueueDispatch(eventId);
      const overdue = await deps.deliveries.overdue(before);
      const bucket = `-r${Math.floor(clock().getTime() / STRANDED_AFTER_MS)}`;
      for (const d of overdue) await enqueueDelivery(d, bucket);
      return { events: eventIds.length, deliveries: overdue.length };
    },
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
