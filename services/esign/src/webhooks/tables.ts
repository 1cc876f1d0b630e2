import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, boolean } from 'drizzle-orm/pg-core';
import { tenants } from '../keys/tables';
import type { WebhookEventType } from './event-types';

/**
 * A tenant's webhook endpoint. The signing secret is stored so the service can sign
 * (packages/webhooks `secrets.ts`: AES-256-GCM under WEBHOOK_SECRET_KEY, or the at-rest key's `webhook` subkey without it); during a
 * rotation the previous secret signs too until `previous_secret_expires_at`.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    url: text('url').notNull(),
    /** null: every event type. */
    events: text('events').array().$type<WebhookEventType[]>(),
    description: text('description'),
    active: boolean('active').notNull().default(true),
    disabledReason: text('disabled_reason'),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    /** Since when every delivery has failed (null after a success): 5 days of it disables the endpoint. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhooks_tenant_idx').on(t.tenantId)],
);

/**
 * The transactional outbox: one row per event, written in the same transaction as the
 * state change that causes it; `seq` orders a document's events. `dispatched_at` is set
 * once its deliveries exist. The payload holds the event's `data` (no tenant name: added
 * when sent); erasure anonymises it.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: uuid('id').notNull().unique().defaultRandom(),
    tenantId: uuid('tenant_id').notNull(),
    documentId: uuid('document_id'),
    type: text('type').$type<WebhookEventType>().notNull(),
    data: jsonb('data').$type<Record<string, string | number | boolean | null>>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (t) => [index('webhook_events_undispatched_idx').on(t.dispatchedAt, t.occurredAt), index('webhook_events_document_idx').on(t.documentId, t.seq)],
);

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'exhausted'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event for one endpoint: `webhook-id` is `msg_<id>`, the same across its retries. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventSeq: bigint('event_seq', { mode: 'number' })
      .notNull()
      .references(() => webhookEvents.seq),
    tenantId: uuid('tenant_id').notNull(),
    documentId: uuid('document_id'),
    /** pending: waiting for its next attempt; failed: retrying after a failure; exhausted: given up. */
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_once_idx').on(t.webhookId, t.eventSeq),
    index('webhook_deliveries_log_idx').on(t.webhookId, t.createdAt),
    index('webhook_deliveries_order_idx').on(t.webhookId, t.documentId, t.eventSeq),
  ],
);

/** Each HTTP attempt of a delivery: what came back (at most 4 KiB of the body) and how long it took. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    responseBody: text('response_body'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);

/** An endpoint the service disabled (410, or 5 days of failures): the admin views list these. */
export const webhookDisablements = pgTable('webhook_disablements', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  webhookId: uuid('webhook_id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  reason: text('reason').notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
});
