import { bigserial, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * What superadmins did that changes data (tenant erasure): who (the key id), when, what,
 * how many. Append-only by convention of its one repository; it holds no personal data.
 */
export const adminLog = pgTable('admin_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  keyId: uuid('key_id').notNull(),
  action: text('action').notNull(),
  tenant: text('tenant').notNull(),
  count: integer('count').notNull(),
  details: jsonb('details').$type<Record<string, string | number | boolean | null>>(),
});
