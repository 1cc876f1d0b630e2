import type { Sender } from '../branding/service';
import type { DocumentRecord } from '../documents/repository';
import type { MailRepository } from '../mail/repository';
import { cancelledEmail } from './emails';
import type { SigningRequestRow, SigningRequestsRepository } from './repository';

/** Why requests are cancelled, as the notice email says it. */
export type CancelCause = 'declined' | 'voided' | 'expired';

/**
 * Cancels open requests in the caller's transaction (which holds the document's row lock):
 * each becomes `cancelled` with `cancelReason`, its code and sealed link go, its signee gets
 * the notice of `cause` (with `emailReason`, a void's motivo, when given), and held link
 * emails left by an earlier version are discarded. Answers the notices' ids, to enqueue after
 * commit. The caller records the `request_cancelled` events with its own.
 */
export async function cancelRequests(
  tx: { requests: Pick<SigningRequestsRepository, 'update'>; outbox: Pick<MailRepository, 'insert' | 'discardHeld'> },
  cancel: { requests: readonly SigningRequestRow[]; document: Pick<DocumentRecord, 'id' | 'title' | 'filename'>; sender: Sender; now: Date; cause: CancelCause; cancelReason: string; emailReason?: string },
): Promise<string[]> {
  const { document, sender, now } = cancel;
  const emailIds: string[] = [];
  for (const request of cancel.requests) {
    await tx.requests.update(request.id, { status: 'cancelled', cancelledAt: now, cancelReason: cancel.cancelReason, otpHash: null, otpExpiresAt: null, sealedToken: null, nextReminderAt: null });
    const email = cancelledEmail({
      locale: request.locale,
      signeeName: request.signeeName,
      tenant: sender.name,
      documentTitle: document.title ?? document.filename,
      cause: cancel.cause,
      ...(cancel.emailReason ? { reason: cancel.emailReason } : {}),
      brand: { name: sender.name, logoUrl: sender.logoUrl, accentColor: sender.accentColor },
    });
    emailIds.push(await tx.outbox.insert({ to: request.signeeEmail, ...email, documentId: document.id, requestId: request.id, kind: 'other' }));
  }
  await tx.outbox.discardHeld(cancel.requests.map((r) => r.id));
  return emailIds;
}
