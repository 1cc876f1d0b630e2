import { index, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  /** What people call the tenant (`POST /admin/tenants`); null: its name. */
  displayName: text('display_name'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * API keys: only the SHA-256 of the key is stored; `prefix` is what listings show. A key past
 * `expires_at` answers 401; `replaced_by` points at the key a rotation issued in its place
 * (the old key's `expires_at` is then the end of the overlap).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    role: text('role', { enum: ['tenant', 'superadmin'] }).notNull(),
    keyHash: text('key_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    label: text('label'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    replacedBy: uuid('replaced_by').references((): AnyPgColumn => apiKeys.id),
  },
  (t) => [index('api_keys_tenant_idx').on(t.tenantId)],
);
