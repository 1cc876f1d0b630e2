import type { AuditRepository } from '../audit/repository';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { SigningRequestsRepository } from './repository';

export type ExpiryRepos = UnitOfWork<{ requests: SigningRequestsRepository; documents: DocumentsRepository; audit: AuditRepository }>;

/**
 * The lazy half of the expiry rule (rules.ts `isExpiryDue`): the document's pending
 * requests past their expiry become `expired`, each with its `request_expired` event at
 * the expiry time. Called wherever a document's requests are about to be read.
 */
export async function expireDueRequests(repos: ExpiryRepos, documentId: string, now: Date): Promise<void> {
  await repos.transaction(async (tx) => {
    const expired = await tx.requests.expireDue({ documentId }, now);
    if (expired.length === 0) return;
    const doc = await tx.documents.find(documentId, now);
    await tx.audit.append(
      ...expired.map((r) => ({ documentId, requestId: r.id, tenantId: r.tenantId, kind: 'request_expired' as const, occurredAt: r.expiresAt, documentSha256: doc!.sha256 })),
    );
  });
}
