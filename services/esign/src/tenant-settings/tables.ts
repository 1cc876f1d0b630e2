import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../keys/tables';

/**
 * A tenant's signing settings (`GET/PUT /firma/ajustes`): where decline notices and the
 * tenant's completion copy go. One row per tenant; no row is every default. Tenant erasure
 * deletes it.
 */
export const tenantSettings = pgTable('tenant_settings', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id),
  notifyEmail: text('notify_email'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
