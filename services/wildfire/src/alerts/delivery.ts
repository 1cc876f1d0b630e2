import type { OutboundPolicy } from '@firma-riesgo/auth';
import type { LockedRun, Logger } from '@firma-riesgo/service-kit';
import { attemptResult, keyedLimiter, sendSignedMessage, signingSecrets, type SecretBox } from '@firma-riesgo/webhooks';
import type { AlertDeliveryQueue } from './jobs';
import type { AlertsRepository, DeliveryRow } from './repository';

/** The type of every alert message (Standard Webhooks `type`). */
export const ALERT_EVENT_TYPE = 'wildfire.alert';
/** Attempts to one endpoint at once, per process: a slow receiver holds only its own slots. */
const PER_ENDPOINT_CONCURRENCY = 2;
/** An open delivery this long past due without its job is enqueued again by `alert.resume`. */
const STRANDED_AFTER_MS = 60_000;

export interface AlertDeliveryDeps {
  repo: Pick<AlertsRepository, 'delivery' | 'recordAttempt' | 'overdue' | 'disableWebhook'>;
  queue: AlertDeliveryQueue;
  secrets: SecretBox;
  policy: OutboundPolicy;
  retrySchedule: number[];
  timeoutMs: number;
  userAgent: string;
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
  clock: () => Date;
  logger: Logger;
}

/**
 * Sends raised alerts to their subscriptions' webhooks through the shared core
 * (@firma-riesgo/webhooks): signed per Standard Webhooks with the subscription's secret
 * (and the previous one during a rotation), the outbound guard at every attempt, the
 * retry schedule, and every attempt kept in the delivery's log. The `webhook-id` is the
 * delivery's and stays the same on every retry, so a receiver can drop repeats.
 */
export function createAlertDelivery(deps: AlertDeliveryDeps) {
  const perEndpoint = keyedLimiter(PER_ENDPOINT_CONCURRENCY);

  async function enqueue(d: Pick<DeliveryRow, 'id' | 'attempts' | 'nextAttemptAt'>, suffix = ''): Promise<void> {
    const delayMs = Math.max(0, (d.nextAttemptAt?.getTime() ?? 0) - deps.clock().getTime());
    await deps.queue.enqueue('alert.deliver', { deliveryId: d.id }, { jobId: `alertdeliver-${d.id}-${d.attempts}${suffix}`, delayMs });
  }

  return {
    enqueue: async (deliveries: readonly DeliveryRow[]) => {
      for (const d of deliveries) await enqueue(d);
    },

    /** `alert.deliver`: one attempt, then the delivery's next state and, if any, its next job. */
    async deliver(deliveryId: string): Promise<'succeeded' | 'retrying' | 'exhausted' | 'skipped'> {
      const found = await deps.repo.delivery(deliveryId);
      if (!found) return 'skipped';
      const { delivery, alert, subscription } = found;
      if (delivery.status === 'succeeded' || delivery.status === 'exhausted' || !subscription.webhookUrl || !subscription.secret) return 'skipped';
      // A disabled webhook keeps its open deliveries: re-enabled (a secret rotation), the sweep sends them.
      if (subscription.webhookDisabledAt) return 'skipped';
      const now = deps.clock();
      const message = { id: `msg_${delivery.id}`, body: JSON.stringify({ type: ALERT_EVENT_TYPE, timestamp: alert.raisedAt.toISOString(), data: alert.payload }) };
      const secrets = signingSecrets({ secret: subscription.secret, previousSecret: subscription.previousSecret, previousSecretExpiresAt: subscription.previousSecretExpiresAt }, deps.secrets.open, now);
      const outcome = await perEndpoint(subscription.id, () => sendSignedMessage(subscription.webhookUrl!, secrets, message, now, deps));
      const made = delivery.attempts + 1;
      const result = attemptResult(outcome, made, deps.retrySchedule, now);
      const attempt = { attempted_at: now.toISOString(), status_code: outcome.statusCode, error: outcome.error, duration_ms: outcome.durationMs };
      if (!(await deps.repo.recordAttempt(delivery, attempt, { status: result.status, nextAttemptAt: result.nextAttemptAt }))) return 'skipped';
      if (result.status === 'succeeded') return 'succeeded';
      if (result.status === 'exhausted') {
        deps.logger.warn({ deliveryId, subscriptionId: subscription.id, attempts: made, gone: result.gone }, 'alert delivery given up');
        // As esign does with a dead endpoint: a receiver that is gone, or that failed a whole retry schedule, is sent nothing more.
        const reason = result.gone ? 'The receiver answered 410 Gone' : `Every attempt of a delivery failed for the whole retry schedule (${made} attempts, the last at ${now.toISOString()})`;
        if (await deps.repo.disableWebhook(subscription.id, reason, now)) deps.logger.warn({ subscriptionId: subscription.id, reason }, 'alert webhook disabled');
        return 'exhausted';
      }
      await enqueue({ id: delivery.id, attempts: made, nextAttemptAt: result.nextAttemptAt });
      return 'retrying';
    },

    /** `alert.resume`: open deliveries past due by more than a minute, their job lost, are enqueued again. */
    async resumeInterrupted(): Promise<{ deliveries: number } | null> {
      const run = await deps.exclusive('wildfire:alert-resume', async () => {
        const now = deps.clock().getTime();
        const overdue = await deps.repo.overdue(new Date(now - STRANDED_AFTER_MS));
        const bucket = `-r${Math.floor(now / STRANDED_AFTER_MS)}`;
        for (const d of overdue) await enqueue(d, bucket);
        return { deliveries: overdue.length };
      });
      return run.ran ? run.value : null;
    },
  };
}

export type AlertDelivery = ReturnType<typeof createAlertDelivery>;
