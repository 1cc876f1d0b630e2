import type { SigningRequestRow } from './repository';
import { effectiveStatus, MAX_REASSIGNMENTS, otpAttemptsLeft, waitingFor } from './rules';
import { maskEmail } from './mask-email';
import type { TSigningRequestStatus } from './schemas';

/**
 * The status record of a request as the API answers it (estado, a document's list, confirm).
 * `siblings`: the document's requests, for `waiting_for` (rules.ts `waitingFor`).
 */
export function statusRecord(row: SigningRequestRow, now: Date, siblings: SigningRequestRow[]): TSigningRequestStatus {
  return {
    request_id: row.id,
    document_id: row.documentId,
    status: effectiveStatus(row, now),
    signee_email: row.signeeEmail,
    signee_name: row.signeeName,
    locale: row.locale,
    redirect_url: row.redirectUrl,
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    viewed_at: row.viewedAt?.toISOString() ?? null,
    signed_at: row.signedAt?.toISOString() ?? null,
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
    otp_attempts_left: otpAttemptsLeft(row),
    locked: row.lockedAt !== null,
    signature: row.sealStatus
      ? {
          status: row.sealStatus,
          level: row.signatureLevel,
          tsa_time: row.tsaTime?.toISOString() ?? null,
          signed_sha256: row.signedSha256,
          sealed_at: row.sealedAt?.toISOString() ?? null,
          error: row.sealError,
        }
      : null,
    order: row.signingOrder,
    role: row.role,
    declined_at: row.declinedAt?.toISOString() ?? null,
    decline_reason: row.declineReason,
    reminders_sent: row.remindersSent,
    next_reminder_at: row.nextReminderAt?.toISOString() ?? null,
    reassigned_from: row.reassignedFrom,
    reassign_reason: row.reassignReason,
    waiting_for: waitingFor(row, siblings),
    // Only for a request created with fields: a request without keeps its record as it was.
    ...(row.fields ? { fields: row.fields, field_values: row.fieldValues } : {}),
  };
}

/** The answer to a reassignment: the new link only for the tenant (the signee's new person gets it by email). */
export function reassignedRecord(row: SigningRequestRow, signingUrl: string | null) {
  return {
    request_id: row.id,
    status: row.status as 'pending' | 'waiting',
    signing_url: signingUrl,
    reassigned_from: row.reassignedFrom ?? '',
    reassign_reason: row.reassignReason,
    email_hint: maskEmail(row.signeeEmail),
    reassignments_left: MAX_REASSIGNMENTS - row.reassignCount,
  };
}
