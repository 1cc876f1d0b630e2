import { bigserial, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * What operators did to tokens (created, revoked, rotated): when, who (the acting token, or
 * `cli` for the operator CLI), what, and which account and token. Append-only by convention of
 * its one repository; it never holds a token, only ids and prefixes.
 */
export const adminLog = pgTable('admin_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  /** The token the call was made with; null for the CLI. */
  actorTokenId: uuid('actor_token_id'),
  /** `account:<name>` of the acting token, or `cli`. */
  actor: text('actor').notNull(),
  action: text('action').notNull(),
  account: text('account').notNull(),
  tokenId: uuid('token_id').notNull(),
  details: jsonb('details').$type<Record<string, string | number | boolean | null>>(),
});
