import { bigserial, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * What superadmins and operators did that changes data (tenant erasure; tenants and keys
 * created, keys revoked and rotated, from REST, the dashboard, tenant self-service or the CLI):
 * who (the key id; null for the operator CLI), when, what, how many. Append-only by convention of its one repository; it holds no personal data.
 */
export const adminLog = pgTable('admin_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  keyId: uuid('key_id'),
  action: text('action').notNull(),
  tenant: text('tenant').notNull(),
  count: integer('count').notNull(),
  details: jsonb('details').$type<Record<string, string | number | boolean | null>>(),
});
