import type { AuditRepository } from '../audit/repository';
import type { DocumentsRepository } from '../documents/repository';
import type { SentEmail } from '../mail/service';

/**
 * The `email_sent` event of a request's link or code email, once the mail job has handed
 * it to SMTP. The signing-requests feature owns these emails (it writes them in its
 * transactions), so it records their delivery too; the mail feature only reports it.
 */
export function createRecordEmailSent(deps: { repos: { documents: DocumentsRepository; audit: AuditRepository }; clock?: () => Date }) {
  const clock = deps.clock ?? (() => new Date());
  return async (email: SentEmail): Promise<void> => {
    if (!email.documentId || !email.requestId) return;
    const doc = await deps.repos.documents.find(email.documentId, clock());
    if (!doc || doc.erasedAt) return;
    await deps.repos.audit.append({
      documentId: doc.id,
      requestId: email.requestId,
      tenantId: doc.tenantId,
      kind: 'email_sent',
      occurredAt: email.sentAt,
      email: email.to,
      documentSha256: doc.sha256,
      details: { email: email.kind },
    });
  };
}
