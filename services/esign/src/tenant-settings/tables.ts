import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../keys/tables';

/**
 * A tenant's signing settings (`GET/PUT /firma/ajustes`): where decline notices and the
 * tenant's completion copy go, and the reminder defaults of its new requests. One row per tenant; no row is every default. Tenant erasure
 * deletes it.
 */
export const tenantSettings = pgTable('tenant_settings', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id),
  notifyEmail: text('notify_email'),
  /** The reminder defaults of the tenant's new requests (signing-requests/rules.ts reminders). */
  reminderEveryHours: integer('reminder_every_hours').notNull().default(72),
  reminderMax: integer('reminder_max').notNull().default(3),
  /** Origins allowed to frame the tenant's signing pages (embed-origins.ts), normalised; empty: none. */
  embedOrigins: text('embed_origins')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
