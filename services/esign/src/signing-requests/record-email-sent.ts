import type { AuditRepository } from '../audit/repository';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { SentEmail } from '../mail/service';
import type { MeterRepository } from '../metering/repository';

/**
 * The `email_sent` event of a request's link or code email, once the mail job has handed
 * it to SMTP, and its count for billing, in one transaction. The signing-requests feature
 * owns these emails (it writes them in its transactions), so it records their delivery
 * too; the mail feature only reports it.
 */
export function createRecordEmailSent(deps: {
  repos: UnitOfWork<{ documents: DocumentsRepository; audit: AuditRepository; meter: MeterRepository }>;
  meterDay: (at: Date) => string;
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());
  return async (email: SentEmail): Promise<void> => {
    if (!email.documentId || !email.requestId) return;
    const documentId = email.documentId;
    await deps.repos.transaction(async (tx) => {
      // Locked as erasure locks it: an erasure running now either finishes first (and the
      // event is not written) or waits and then anonymises this event with the others.
      const doc = await tx.documents.lock(documentId, clock());
      if (!doc) return;
      await tx.meter.add(doc.tenantId, deps.meterDay(email.sentAt), 'emails_sent');
      if (doc.erasedAt) return;
      await tx.audit.append({
        documentId: doc.id,
        requestId: email.requestId,
        tenantId: doc.tenantId,
        kind: 'email_sent',
        occurredAt: email.sentAt,
        email: email.to,
        documentSha256: doc.sha256,
        details: { email: email.kind },
      });
    });
  };
}
