import { customType, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * Outgoing email. Queue payloads carry only the row id, so addresses and bodies
 * live here, where erasure can reach them, and never in Redis. The bodies (which carry
 * signing links and codes) are kept only encrypted, in `sealed_body`, and only until the
 * message is sent or given up (mail/sealed-body.ts).
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    /**
     * AES-256-GCM (at-rest/sealed-bytes.ts) of the text and HTML bodies, bound to the row's id
     * and address; null once sent or failed for good.
     */
    sealedBody: bytea('sealed_body'),
    /** Rows queued before bodies were sealed at rest only: their plain bodies, sent as they are and then wiped. Always null now. */
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    /** The document and request a message is about, so erasure can delete it. */
    documentId: uuid('document_id'),
    requestId: uuid('request_id'),
    kind: text('kind', { enum: ['signing_link', 'otp', 'completion', 'other'] })
      .notNull()
      .default('other'),
    /** held: a waiting request's link email as earlier versions wrote it at creation; now only discarded (signing-requests/release-next-order.ts writes link emails at the release). */
    status: text('status', { enum: ['held', 'queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    /** A stored file sent as the message's attachment (the final PDF of a completion copy), read when the message is sent. */
    attachmentKey: text('attachment_key'),
    attachmentName: text('attachment_name'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('email_outbox_document_idx').on(t.documentId)],
);
