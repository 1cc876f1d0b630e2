import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { SentEmail } from '../mail/service';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';

/**
 * The `email_sent` event of a request's link or code email, once the mail job has handed
 * it to SMTP, and its count for billing, in one transaction. The signing-requests feature
 * owns these emails (it writes them in its transactions), so it records their delivery
 * too; the mail feature only reports it.
 */
export function createRecordEmailSent(deps: {
  repos: UnitOfWork<SigningEventRepos & { documents: DocumentsRepository }>;
  record: RecordSigningEvents;
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());
  return async (email: SentEmail): Promise<void> => {
    if (!email.documentId || !email.requestId) return;
    const { documentId, requestId } = email;
    await deps.repos.transaction(async (tx) => {
      // Locked as erasure locks it: an erasure running now either finishes first (and the
      // event is counted but not written) or waits and then anonymises this event with the others.
      const document = await tx.documents.lock(documentId, clock());
      if (!document) return;
      await deps.record(tx, { kind: 'email_sent', at: email.sentAt, document, requestId, to: email.to, email: email.kind });
    });
  };
}
