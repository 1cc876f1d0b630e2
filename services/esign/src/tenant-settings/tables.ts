import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../keys/tables';

/**
 * A tenant's signing settings (`GET/PUT /firma/ajustes`): where decline and completion notices
 * go, and the reminder defaults of its new requests. One row per tenant; no row is every
 * default. Tenant erasure deletes it.
 */
export const tenantSettings = pgTable('tenant_settings', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id),
  notifyEmail: text('notify_email'),
  reminderEveryHours: integer('reminder_every_hours').notNull(),
  reminderMax: integer('reminder_max').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
