import { randomUUID } from 'node:crypto';
import { checkOutboundUrl, OutboundAddressError, type OutboundPolicy } from '@firma-riesgo/auth';
import { NotFoundError, ValidationError } from '../errors';
import type { z } from 'zod';
import type { EsignPrincipal } from '../keys/authenticate';
import type { WebhookDeliveriesRepository } from './deliveries-repository';
import type { WebhookDelivery } from './delivery';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types';
import type { WebhookEventsRepository } from './events-repository';
import type { WebhookRow, WebhooksRepository } from './repository';
import type { TWebhook, ZCreateWebhookSchema, ZUpdateWebhookSchema } from './schemas';
import { newWebhookSecret, ROTATION_OVERLAP_MS, type SecretBox } from '@firma-riesgo/webhooks';

/** How long the previous secret keeps signing after a rotation (the shared core's rule). */
export { ROTATION_OVERLAP_MS };

export interface WebhooksServiceDeps {
  webhooks: WebhooksRepository;
  events: WebhookEventsRepository;
  deliveries: WebhookDeliveriesRepository;
  delivery: Pick<WebhookDelivery, 'send' | 'retryNow'>;
  secrets: SecretBox;
  policy: OutboundPolicy;
  clock?: () => Date;
}

export function webhookRecord(row: WebhookRow): TWebhook {
  return {
    webhook_id: row.id,
    url: row.url,
    events: row.events ?? [...WEBHOOK_EVENT_TYPES],
    description: row.description,
    active: row.active,
    disabled_reason: row.disabledReason,
    created_at: row.createdAt.toISOString(),
  };
}

/** The tenant's webhook endpoints: create, read, change, delete, test, rotate, and the delivery log. */
export function createWebhooksService(deps: WebhooksServiceDeps) {
  const clock = deps.clock ?? (() => new Date());

  /** The outbound guard at creation and on every change (422 naming `url`); deliveries check again. */
  async function assertDeliverable(url: string): Promise<void> {
    try {
      await checkOutboundUrl(url, deps.policy);
    } catch (err) {
      if (err instanceof OutboundAddressError) throw ValidationError.single('body', 'url', `The webhook URL is not allowed: ${err.message}`, `url_${err.reason}`);
      throw err;
    }
  }

  /** The caller's webhook; another tenant's is as absent as a missing one (a superadmin may reach any where stated). */
  async function owned(principal: EsignPrincipal, id: string, options: { superadmin?: boolean } = {}): Promise<WebhookRow> {
    const row = await deps.webhooks.find(id);
    const allowed = row && (row.tenantId === principal.tenantId || (options.superadmin && principal.role === 'superadmin'));
    if (!allowed) throw new NotFoundError('Webhook not found', 'WEBHOOK_NOT_FOUND');
    return row;
  }

  return {
    async create(principal: EsignPrincipal, body: z.output<typeof ZCreateWebhookSchema>) {
      await assertDeliverable(body.url);
      const secret = newWebhookSecret();
      const now = clock();
      const row = await deps.webhooks.insert({
        tenantId: principal.tenantId,
        url: body.url,
        events: body.events ?? null,
        description: body.description ?? null,
        secret: deps.secrets.seal(secret),
        createdAt: now,
        updatedAt: now,
      });
      return { ...webhookRecord(row), secret };
    },

    async list(principal: EsignPrincipal): Promise<TWebhook[]> {
      return (await deps.webhooks.listForTenant(principal.tenantId)).map(webhookRecord);
    },

    async get(principal: EsignPrincipal, id: string): Promise<TWebhook> {
      return webhookRecord(await owned(principal, id));
    },

    async update(principal: EsignPrincipal, id: string, body: z.output<typeof ZUpdateWebhookSchema>): Promise<TWebhook> {
      await owned(principal, id);
      if (body.url !== undefined) await assertDeliverable(body.url);
      const row = await deps.webhooks.update(id, {
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.events !== undefined ? { events: body.events } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.active !== undefined ? { active: body.active, ...(body.active ? { disabledReason: null, failingSince: null } : {}) } : {}),
        updatedAt: clock(),
      });
      return webhookRecord(row!);
    },

    /** A tenant deletes its own; a superadmin any (interface §4.4). */
    async remove(principal: EsignPrincipal, id: string): Promise<void> {
      await owned(principal, id, { superadmin: true });
      await deps.webhooks.remove(id);
    },

    /** Delivers a synthetic `document_signed` at once and reports what the receiver answered. */
    async test(principal: EsignPrincipal, id: string) {
      const webhook = await owned(principal, id);
      const now = clock();
      const data = {
        document_id: randomUUID(),
        request_id: randomUUID(),
        tenant: principal.tenant,
        signee_email: 'test.signee@example.com',
        signed_at: now.toISOString(),
        signature_level: 'B-B',
        document_sha256: '0'.repeat(64),
        test: true,
      };
      const outcome = await deps.delivery.send(webhook, { id: `msg_test_${randomUUID()}`, body: JSON.stringify({ type: 'document_signed' satisfies WebhookEventType, timestamp: now.toISOString(), data }) });
      return { status_code: outcome.statusCode, ok: outcome.ok, error: outcome.error, duration_ms: outcome.durationMs };
    },

    /** A new secret; the previous one signs too for 24 hours, so receivers can switch without a gap. */
    async rotateSecret(principal: EsignPrincipal, id: string): Promise<{ secret: string }> {
      const webhook = await owned(principal, id);
      const secret = newWebhookSecret();
      const now = clock();
      await deps.webhooks.update(id, { secret: deps.secrets.seal(secret), previousSecret: webhook.secret, previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS), updatedAt: now });
      return { secret };
    },

    async deliveries(principal: EsignPrincipal, id: string, page: { limit: number; offset: number }) {
      await owned(principal, id);
      const { rows, total } = await deps.deliveries.page(id, page);
      const events = await Promise.all(rows.map((r) => deps.events.findBySeq(r.eventSeq)));
      return {
        items: rows.map((r, i) => ({
          delivery_id: r.id,
          event_id: events[i]!.id,
          type: events[i]!.type,
          status: r.status,
          attempts: r.attemptRows.map((a) => ({ attempted_at: a.attemptedAt.toISOString(), status_code: a.statusCode, error: a.error, duration_ms: a.durationMs })),
          next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
        })),
        total,
        ...page,
      };
    },

    async retryDelivery(principal: EsignPrincipal, id: string, deliveryId: string): Promise<{ delivery_id: string; status: 'pending' }> {
      await owned(principal, id);
      const delivery = await deps.deliveries.find(deliveryId);
      if (!delivery || delivery.webhookId !== id) throw new NotFoundError('Delivery not found', 'DELIVERY_NOT_FOUND');
      await deps.delivery.retryNow(delivery);
      return { delivery_id: delivery.id, status: 'pending' };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
