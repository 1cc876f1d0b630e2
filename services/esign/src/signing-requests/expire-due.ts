import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { SigningRequestsRepository } from './repository';

export type ExpiryRepos = UnitOfWork<SigningEventRepos & { requests: SigningRequestsRepository; documents: DocumentsRepository }>;

/**
 * The lazy half of the expiry rule (rules.ts `EXPIRY`): the document's pending requests
 * past their expiry become `expired`, each recorded as a `request_expired` event at its
 * expiry time. Called wherever a document's requests are about to be read. Returns the
 * webhook event ids to publish after commit.
 */
export async function expireDueRequests(repos: ExpiryRepos, record: RecordSigningEvents, documentId: string, now: Date): Promise<string[]> {
  return repos.transaction(async (tx) => {
    const expired = await tx.requests.expireDue({ documentId }, now);
    if (expired.length === 0) return [];
    const document = (await tx.documents.find(documentId, now))!;
    return record(tx, ...expired.map((request) => ({ kind: 'request_expired' as const, request, document })));
  });
}
