import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import type { ClientInfo } from '../audit/client';
import type { AuditRepository } from '../audit/repository';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentRecord } from '../documents/repository';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { SigningRequestRow, SigningRequestsRepository } from '../signing-requests/repository';
import { publishWebhookEvents } from '../webhooks/publish';

/** `document_viewed` is recorded at most once per this per request. */
const VIEW_EVENT_EVERY_MS = 60_000;

export type RecordViewRepos = UnitOfWork<
  SigningEventRepos & {
    requests: Pick<SigningRequestsRepository, 'lockByTokenHash' | 'markViewed'>;
    audit: Pick<AuditRepository, 'countSince'>;
  }
>;

/**
 * `document_viewed` (audit, and the webhook event), at most once a minute per request:
 * the PDF or a page image, whichever the signee fetched (`details.via`). The code step
 * accepts either.
 */
export function createRecordView(deps: { repos: RecordViewRepos; jobs: JobEnqueuer<typeof dispatchWebhookEventJob>; record: RecordSigningEvents; clock: () => Date }) {
  const { repos, clock } = deps;
  return async function recordView(request: SigningRequestRow, document: DocumentRecord, client: ClientInfo, how: { via: 'pdf' | 'pages'; page?: number }): Promise<void> {
    const now = clock();
    const eventIds = await repos.transaction(async (tx) => {
      // The row as it is now, locked as erasure locks it: an erasure that ran meanwhile has
      // cancelled it or replaced its address, so nothing personal is written after it.
      const current = await tx.requests.lockByTokenHash(request.tokenHash);
      if (!current || current.status === 'cancelled') return [];
      if ((await tx.audit.countSince(current.id, 'document_viewed', new Date(now.getTime() - VIEW_EVENT_EVERY_MS))).n > 0) return [];
      await tx.requests.markViewed(current.id, now);
      return deps.record(tx, { kind: 'document_viewed', at: now, request: current, document, client, via: how.via, page: how.page });
    });
    await publishWebhookEvents(deps.jobs, eventIds);
  };
}

export type RecordView = ReturnType<typeof createRecordView>;
