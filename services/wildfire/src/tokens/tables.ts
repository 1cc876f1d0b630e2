import { index, integer, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Who tokens belong to. `monthly_quota` (requests per month, null = unlimited) applies to live tokens. */
export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  monthlyQuota: integer('monthly_quota'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * API tokens: only the SHA-256 of the token is stored; `prefix` is what listings show.
 * Null `municipios` / `ip_allowlist` mean no restriction; `replaced_by` points at the
 * token that a rotation issued in its place.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    type: text('type', { enum: ['live', 'test'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    municipios: text('municipios').array(),
    ipAllowlist: text('ip_allowlist').array(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    replacedBy: uuid('replaced_by').references((): AnyPgColumn => apiTokens.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('api_tokens_account_idx').on(t.accountId)],
);
