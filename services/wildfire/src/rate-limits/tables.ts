import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../tokens/tables';

/**
 * Requests served to an account's live tokens, per calendar month in Spain
 * (`month` = `YYYY-MM`). One row per account and month, incremented atomically by
 * every instance, so the quota holds across instances without Redis.
 */
export const accountUsage = pgTable(
  'account_usage',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    month: text('month').notNull(),
    requests: integer('requests').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);
