import { ConflictError, NotFoundError } from '../errors';
import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import type { ClientInfo } from '../audit/client';
import type { Sender } from '../branding/service';
import type { EsignPrincipal } from '../keys/authenticate';
import type { sendEmailJob } from '../mail/jobs';
import type { finaliseDocumentJob } from '../signatures/jobs';
import type { RecordSigningEvents } from '../signing-events/record-event';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import { publishWebhookEvents } from '../webhooks/publish';
import { cancelRequests } from './cancel-requests';
import { statusRecord } from './records';
import type { SigningTurns } from './release-next-order';
import { voidable } from './rules';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { MailRepository } from '../mail/repository';
import type { SigningEventRepos } from '../signing-events/record-event';
import type { TurnRepos } from './release-next-order';
import type { SigningRequestsRepository } from './repository';

/** A void locks the document, cancels the request, queues its notice and releases the next order. */
export type VoidRequestRepos = UnitOfWork<
  SigningEventRepos &
    TurnRepos & {
      requests: Pick<SigningRequestsRepository, 'find' | 'update' | 'allSealed' | 'listForDocument' | 'releaseDue'>;
      documents: Pick<DocumentsRepository, 'lockRecord'>;
      outbox: Pick<MailRepository, 'insert' | 'discardHeld'>;
    }
>;

/**
 * The tenant withdraws one request (`POST /firma/solicitudes/{id}/anular`): under the
 * document's row lock (as a confirmation takes it), an open request (waiting or pending)
 * becomes `cancelled` with the tenant's reason, its signee is told by email, its held link
 * email is discarded and `request_cancelled` (reason `voided`) is recorded. A void can end a
 * turn (the next order is released) or leave every remaining part done (the final PDF is
 * built). Signed, approved, declined, expired and cancelled requests answer 409.
 */
export function createVoidRequest(deps: {
  repos: VoidRequestRepos;
  jobs: JobEnqueuer<typeof sendEmailJob | typeof dispatchWebhookEventJob | typeof finaliseDocumentJob>;
  sender: (tenantId: string) => Promise<Sender>;
  record: RecordSigningEvents;
  turns: SigningTurns;
  clock: () => Date;
}) {
  const { repos, clock, turns } = deps;
  return async function voidRequest(principal: EsignPrincipal, requestId: string, reason: string, _client: ClientInfo) {
    const found = await repos.requests.find(requestId);
    if (!found || found.tenantId !== principal.tenantId) throw new NotFoundError('Signing request not found', 'REQUEST_NOT_FOUND');
    const now = clock();
    const sender = await deps.sender(principal.tenantId);
    const { emailIds, outbox, documentId } = await repos.transaction(async (tx) => {
      await turns.lockTurn(tx, found.documentId);
      const request = (await tx.requests.find(requestId))!;
      if (!voidable(request, now)) throw new ConflictError(`A ${request.status} request cannot be voided`, 'REQUEST_NOT_VOIDABLE');
      const document = (await tx.documents.lockRecord(request.documentId))!;
      const noticeIds = await cancelRequests(tx, { requests: [request], document, sender, now, cause: 'voided', cancelReason: reason, emailReason: reason });
      const cancelled = await deps.record(tx, { kind: 'request_cancelled', at: now, request, document, reason: 'voided' });
      const released = await turns.release(tx, document, now);
      return { emailIds: [...noticeIds, ...released.emailIds], outbox: [...cancelled, ...released.outbox], documentId: document.id };
    });
    for (const emailId of emailIds) await deps.jobs.enqueue('email.send', { emailId });
    await publishWebhookEvents(deps.jobs, outbox);
    if (await repos.requests.allSealed(documentId)) await deps.jobs.enqueue('document.finalise', { documentId });
    const rows = await repos.requests.listForDocument(documentId);
    return statusRecord(rows.find((r) => r.id === requestId)!, clock(), rows);
  };
}
