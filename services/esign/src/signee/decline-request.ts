import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import type { ClientInfo } from '../audit/client';
import type { Sender } from '../branding/service';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { sendEmailJob } from '../mail/jobs';
import type { MailRepository } from '../mail/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import { cancelRequests } from '../signing-requests/cancel-requests';
import { tenantDeclineNotice } from '../signing-requests/emails';
import type { SigningRequestsRepository } from '../signing-requests/repository';
import { cancelledByDecline, DECLINED } from '../signing-requests/rules';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import { publishWebhookEvents } from '../webhooks/publish';
import { assertActive, type LinkLoader } from './link';

/** A decline locks the document and the request, declines it, cancels the others and queues their notices. */
export type DeclineRequestRepos = UnitOfWork<
  SigningEventRepos & {
    documents: Pick<DocumentsRepository, 'lockRecord'>;
    requests: Pick<SigningRequestsRepository, 'lockByTokenHash' | 'update' | 'listForDocument'>;
    outbox: Pick<MailRepository, 'insert' | 'discardHeld'>;
  }
>;

/**
 * The signee says no (`POST /firma/firmar/{token}/rechazar`): the request becomes `declined`
 * (its document reads `declined`), the document's other open requests (waiting or pending, cc
 * included) are cancelled and each signee is told by email, their held link emails are
 * discarded, and `request_declined` (with the reason) and one `request_cancelled` each are
 * recorded, all in one transaction under the document's row lock (as a confirmation takes it).
 */
export function createDeclineRequest(deps: {
  repos: DeclineRequestRepos;
  link: LinkLoader;
  sender: (tenantId: string) => Promise<Sender>;
  /** The tenant's notification address (tenant settings), told of the decline with its reason. */
  notifyEmail: (tenantId: string) => Promise<string | null>;
  jobs: JobEnqueuer<typeof sendEmailJob | typeof dispatchWebhookEventJob>;
  record: RecordSigningEvents;
  clock: () => Date;
}) {
  const { repos, clock } = deps;
  return async function declineRequest(token: string, reason: string, client: ClientInfo) {
    const { request: current, document } = await deps.link.load(token);
    const now = clock();
    const sender = await deps.sender(current.tenantId);
    const notify = await deps.notifyEmail(current.tenantId);
    const { emailIds, outbox, cancelledCount } = await repos.transaction(async (tx) => {
      await tx.documents.lockRecord(document.id);
      const request = (await tx.requests.lockByTokenHash(current.tokenHash))!;
      assertActive(request, now);
      await tx.requests.update(request.id, { status: DECLINED, declinedAt: now, declineReason: reason, otpHash: null, otpExpiresAt: null, sealedToken: null, nextReminderAt: null });
      const others = cancelledByDecline(request, await tx.requests.listForDocument(document.id), now);
      const emailIds = await cancelRequests(tx, { requests: others, document, sender, now, cause: 'declined', cancelReason: 'declined' });
      if (notify) {
        const notice = tenantDeclineNotice({ documentTitle: document.title ?? document.filename, documentId: document.id, signee: request.signeeName ?? request.signeeEmail, reason, cancelled: others.length });
        emailIds.push(await tx.outbox.insert({ to: notify, ...notice, documentId: document.id, requestId: request.id, kind: 'other' }));
      }
      const outbox = await deps.record(
        tx,
        { kind: 'request_declined', at: now, request, document, client, reason },
        ...others.map((other) => ({ kind: 'request_cancelled' as const, at: now, request: other, document, reason: 'declined' as const })),
      );
      return { emailIds, outbox, cancelledCount: others.length };
    });
    for (const emailId of emailIds) await deps.jobs.enqueue('email.send', { emailId });
    await publishWebhookEvents(deps.jobs, outbox);
    return { request_id: current.id, status: DECLINED, declined_at: now.toISOString(), cancelled: cancelledCount };
  };
}
