import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { documents } from '../documents/tables';

export const AUDIT_KINDS = [
  'request_created',
  'email_sent',
  'link_opened',
  'document_viewed',
  'otp_sent',
  'otp_failed',
  'otp_verified',
  'signed',
  'sealed',
  'request_expired',
  'request_cancelled',
  'document_finalised',
  'erased',
  /** The document was rendered from a contract template (details: template id and version, SHA-256 of the variables). */
  'document_generated',
  /** An approver's code and declaration (no signature image, no stamp). */
  'approved',
  /** A reminder or the expiry warning was queued (details: kind, manual, n); its delivery is `email_sent` (counted as an email). */
  'reminder_sent',
  /** The request was handed to someone else (details: both addresses masked, by tenant or signee). */
  'reassigned',
  /** The signee declined (the reason is on the request and in the certificate, not in the details). */
  'declined',
  /** A waiting request's turn came; its link email was released (details: order, role). */
  'request_ready',
  /** The completion copy was queued for a recipient (details: role, delivery attached or link). */
  'completion_copy_queued',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/**
 * The audit trail. Append-only, enforced by a trigger (migration 0002): rows are never
 * deleted, and the only update allowed is erasure replacing ip, user agent and email
 * with `[suprimido]`. `details` never holds personal data.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id),
    requestId: uuid('request_id'),
    tenantId: uuid('tenant_id').notNull(),
    kind: text('kind', { enum: AUDIT_KINDS }).notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    email: text('email'),
    documentSha256: text('document_sha256').notNull(),
    details: jsonb('details').$type<Record<string, string | number | boolean | null>>(),
  },
  (t) => [index('audit_events_document_idx').on(t.documentId, t.id)],
);
