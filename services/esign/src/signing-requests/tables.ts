import { SIGNEE_LOCALES } from './email-strings';
import { boolean, customType, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { FieldValues, PlacedField } from './field-schemas';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
import { documents } from '../documents/tables';
import { REQUEST_ROLES, REQUEST_STATUSES } from './rules';

/**
 * One signee's request to sign one document. The link token and the OTP are stored
 * only as hashes; the seal columns say which PAdES level the signee's copy got.
 */
export const signingRequests = pgTable(
  'signing_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id),
    /** The owning tenant's id. No foreign key: tenant erasure deletes the tenant row and keeps this erased row (hashes, audit). */
    tenantId: uuid('tenant_id').notNull(),
    signeeEmail: text('signee_email').notNull(),
    signeeName: text('signee_name'),
    message: text('message'),
    redirectUrl: text('redirect_url'),
    locale: text('locale', { enum: SIGNEE_LOCALES }).notNull().default('es'),
    tokenHash: text('token_hash').notNull().unique(),
    status: text('status', { enum: REQUEST_STATUSES })
      .notNull()
      .default('pending'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    viewedAt: timestamp('viewed_at', { withTimezone: true }),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    otpHash: text('otp_hash'),
    otpExpiresAt: timestamp('otp_expires_at', { withTimezone: true }),
    otpFailedAttempts: integer('otp_failed_attempts').notNull().default(0),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    signatureImageKey: text('signature_image_key'),
    hasSignatureImage: boolean('has_signature_image').notNull().default(false),
    /** Drawn initials (fields): a PNG set in every `initials` field; null when typed or none. */
    initialsImageKey: text('initials_image_key'),
    sealStatus: text('seal_status', { enum: ['sealing', 'sealed', 'failed'] }),
    signatureLevel: text('signature_level', { enum: ['B-B', 'B-T', 'B-LT', 'B-LTA'] }),
    tsaTime: timestamp('tsa_time', { withTimezone: true }),
    signedSha256: text('signed_sha256'),
    sealedAt: timestamp('sealed_at', { withTimezone: true }),
    sealError: text('seal_error'),
    /** Requests of one document with the same order run in parallel; a higher order waits for every lower one (rules.ts `waitingFor`). */
    signingOrder: integer('signing_order').notNull().default(1),
    /** signer (signs and is stamped), approver (code and declaration, no stamp) or cc (no link; gets the completion copy). */
    role: text('role', { enum: REQUEST_ROLES }).notNull().default('signer'),
    /** The completion copy's download link (when the final PDF is too big to attach): its token's hash and expiry. */
    copyTokenHash: text('copy_token_hash').unique(),
    copyExpiresAt: timestamp('copy_expires_at', { withTimezone: true }),
    /** The signee declined: when, and their reason (shown in the audit certificate; erased with the document). */
    declinedAt: timestamp('declined_at', { withTimezone: true }),
    declineReason: text('decline_reason'),
    /** Why the tenant voided it, or why it was cancelled (`declined`: another signee declined). */
    cancelReason: text('cancel_reason'),
    /** Whether the signee may hand the request on (`POST /firma/firmar/{token}/reasignar`); the tenant always may. */
    allowReassign: boolean('allow_reassign').notNull().default(false),
    /** Reassignments so far (at most rules.ts `MAX_REASSIGNMENTS`), the previous address masked, and when. */
    reassignCount: integer('reassign_count').notNull().default(0),
    reassignedFrom: text('reassigned_from'),
    reassignedAt: timestamp('reassigned_at', { withTimezone: true }),
    /** The reason given with the last reassignment (`motivo`), if any: answered in the status record, erased with the document. */
    reassignReason: text('reassign_reason'),
    /** The link token sealed at rest (sealed-link.ts), for reminders; null once the request closes. */
    sealedToken: bytea('sealed_token'),
    /** Reminders: every N hours while pending (0: none), at most `reminder_max`; the count, the last, the next; the expiry warning. */
    reminderEveryHours: integer('reminder_every_hours').notNull().default(72),
    reminderMax: integer('reminder_max').notNull().default(3),
    remindersSent: integer('reminders_sent').notNull().default(0),
    lastReminderAt: timestamp('last_reminder_at', { withTimezone: true }),
    nextReminderAt: timestamp('next_reminder_at', { withTimezone: true }),
    expiryWarnedAt: timestamp('expiry_warned_at', { withTimezone: true }),
    /** Where the signee signs, initials and fills in (field-placement.ts), resolved at creation; null: the block on the last page. */
    fields: jsonb('fields').$type<PlacedField[]>(),
    /** The values the signee filled in, by field name, written with the signature; erased with the document. */
    fieldValues: jsonb('field_values').$type<FieldValues>(),
  },
  (t) => [index('signing_requests_document_idx').on(t.documentId, t.createdAt), index('signing_requests_tenant_idx').on(t.tenantId)],
);
