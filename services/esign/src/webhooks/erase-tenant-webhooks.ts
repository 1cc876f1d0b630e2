import type { UnitOfWork } from '../db/unit-of-work';
import type { WebhookDeliveriesRepository } from './deliveries-repository';
import type { WebhookEventsRepository } from './events-repository';
import type { WebhooksRepository } from './repository';

export type TenantWebhookRepos = UnitOfWork<{ webhooks: WebhooksRepository; deliveries: WebhookDeliveriesRepository; events: WebhookEventsRepository }>;

/**
 * Tenant erasure's webhook part, in one transaction: the tenant's endpoints (URLs and signing
 * secrets), their delivery log (deliveries, attempts, what receivers answered), the events
 * of its outbox and the disablement records. A dispatch or delivery job still queued finds
 * nothing and does nothing.
 */
export function createEraseTenantWebhooks(repos: TenantWebhookRepos) {
  return (tenantId: string): Promise<{ webhooks: number; events: number }> =>
    repos.transaction(async (tx) => {
      const webhooks = await tx.webhooks.removeAllOfTenant(tenantId);
      await tx.deliveries.removeAllOfTenant(tenantId);
      const events = await tx.events.removeAllOfTenant(tenantId);
      return { webhooks, events };
    });
}
