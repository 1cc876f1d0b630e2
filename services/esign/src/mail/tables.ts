import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Outgoing email. Queue payloads carry only the row id, so addresses and bodies
 * live here, where erasure can reach them, and never in Redis.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    /** The document and request a message is about, so erasure can delete it. */
    documentId: uuid('document_id'),
    requestId: uuid('request_id'),
    kind: text('kind', { enum: ['signing_link', 'otp', 'other'] })
      .notNull()
      .default('other'),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('email_outbox_document_idx').on(t.documentId)],
);
