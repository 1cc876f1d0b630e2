import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, apiTokens } from '../tokens/tables';

/**
 * An account's alert subscriptions. `target` is what the client asked for (municipios, a
 * province or a community); `municipios` is it resolved to INE codes at creation, bounded
 * by the creating token's municipality list, so raising an alert is one array match.
 * `secret` (and `previous_secret` during a rotation) are sealed by the shared webhook
 * core's SecretBox under WILDFIRE_WEBHOOK_SECRET_KEY; null without a webhook.
 * `token_id` is the token that made it: each time alerts are raised, that token's current
 * state (followed through its rotations) bounds them: its municipality list, its scope
 * `risk:read`, not revoked, not expired. Null (the token gone, or a subscription made
 * before the binding) raises nothing.
 * `webhook_disabled_at`/`_reason`: the service stopped sending to the webhook (410 Gone, or a
 * delivery that failed every attempt of the retry schedule); rotating the secret re-enables it.
 */
export const alertSubscriptions = pgTable(
  'alert_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Subscriptions made with a test token never raise from live data. */
    tokenType: text('token_type', { enum: ['live', 'test'] }).notNull(),
    tokenId: uuid('token_id').references(() => apiTokens.id, { onDelete: 'set null' }),
    target: jsonb('target').$type<{ municipios: string[] } | { province: string } | { community: string }>().notNull(),
    municipios: text('municipios').array().notNull(),
    minClass: text('min_class', { enum: ['high', 'very_high', 'extreme'] }).notNull(),
    includeForecast: boolean('include_forecast').notNull(),
    webhookUrl: text('webhook_url'),
    secret: text('secret'),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    webhookDisabledAt: timestamp('webhook_disabled_at', { withTimezone: true }),
    webhookDisabledReason: text('webhook_disabled_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('alert_subscriptions_account_idx').on(t.accountId), index('alert_subscriptions_municipios_idx').using('gin', t.municipios)],
);

/**
 * Alerts raised: one per subscription, municipality, day and class (a higher class on the
 * same day is a new alert). `payload` is the webhook message's `data`, kept as sent.
 */
export const raisedAlerts = pgTable(
  'raised_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => alertSubscriptions.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    municipioId: text('municipio_id').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    kind: text('kind', { enum: ['observed', 'forecast'] }).notNull(),
    dangerClass: text('danger_class').notNull(),
    /** The class's rank (0 very_low … 5 extreme): an alert is raised again only for a higher one. */
    classRank: integer('class_rank').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('raised_alerts_dedupe_idx').on(t.subscriptionId, t.municipioId, t.date, t.dangerClass),
    index('raised_alerts_account_idx').on(t.accountId, t.raisedAt),
  ],
);

/** One attempt of a delivery, as the delivery log keeps it. */
export interface AlertAttempt {
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/**
 * The outbox of webhook deliveries: written in the transaction that raises the alert, then
 * sent by the `alert.deliver` job through the shared webhook core (retried on
 * WILDFIRE_WEBHOOK_RETRY_SCHEDULE). `log` keeps every attempt.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => raisedAlerts.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => alertSubscriptions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'failed', 'succeeded', 'exhausted'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    log: jsonb('log').$type<AlertAttempt[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('alert_deliveries_open_idx').on(t.status, t.nextAttemptAt)],
);
