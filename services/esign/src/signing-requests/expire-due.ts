import type { AuditRepository } from '../audit/repository';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { WebhookEventsRepository } from '../webhooks/events-repository';
import type { SigningRequestsRepository } from './repository';

export type ExpiryRepos = UnitOfWork<{ requests: SigningRequestsRepository; documents: DocumentsRepository; audit: AuditRepository; webhookEvents: WebhookEventsRepository }>;

/**
 * The lazy half of the expiry rule (rules.ts `EXPIRY`): the document's pending
 * requests past their expiry become `expired`, each with its `request_expired` event at
 * the expiry time, and its `request_expired` webhook event. Called wherever a document's
 * requests are about to be read. Returns the webhook event ids to publish after commit.
 */
export async function expireDueRequests(repos: ExpiryRepos, documentId: string, now: Date): Promise<string[]> {
  return repos.transaction(async (tx) => {
    const expired = await tx.requests.expireDue({ documentId }, now);
    if (expired.length === 0) return [];
    const doc = await tx.documents.find(documentId, now);
    await tx.audit.append(
      ...expired.map((r) => ({ documentId, requestId: r.id, tenantId: r.tenantId, kind: 'request_expired' as const, occurredAt: r.expiresAt, documentSha256: doc!.sha256 })),
    );
    return tx.webhookEvents.append(
      ...expired.map((r) => ({
        tenantId: r.tenantId,
        documentId,
        type: 'request_expired' as const,
        occurredAt: r.expiresAt,
        data: { document_id: documentId, request_id: r.id, expired_at: r.expiresAt.toISOString() },
      })),
    );
  });
}
