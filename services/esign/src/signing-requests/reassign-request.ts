import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import type { ClientInfo } from '../audit/client';
import type { Sender } from '../branding/service';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { sendEmailJob } from '../mail/jobs';
import type { MailRepository } from '../mail/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import { signingLinkEmail } from './emails';
import { newLinkToken } from './link-token';
import { maskEmail } from './mask-email';
import type { SigningRequestRow, SigningRequestsRepository } from './repository';
import { MAX_REASSIGNMENTS, voidable, WAITING } from './rules';
import type { LinkSealer } from './sealed-link';

export type ReassignRepos = UnitOfWork<
  SigningEventRepos & {
    documents: Pick<DocumentsRepository, 'lockRecord'>;
    requests: Pick<SigningRequestsRepository, 'find' | 'update'>;
    outbox: Pick<MailRepository, 'insert' | 'discardHeld'>;
  }
>;

export interface ReassignInput {
  signeeEmail: string;
  signeeName?: string;
  reason?: string;
}

/**
 * Hands an open request (waiting or pending) to someone else, keeping its order and role:
 * under the document's row lock, a new link replaces the old one (whose token no longer
 * matches: 404 at once, as an unknown link), the code, attempts and lock start afresh, the
 * link email goes to the new person (held, when the request still waits for its turn), and
 * `reassigned` records both addresses masked. At most MAX_REASSIGNMENTS times. `by`: the
 * tenant (any request of theirs) or the signee (only with `allow_reassign`).
 */
export function createReassignRequest(deps: {
  repos: ReassignRepos;
  jobs: JobEnqueuer<typeof sendEmailJob>;
  publicUrl: string;
  sender: (tenantId: string) => Promise<Sender>;
  record: RecordSigningEvents;
  links: LinkSealer;
  clock: () => Date;
}) {
  const { repos, clock } = deps;
  return async function reassignRequest(found: SigningRequestRow, input: ReassignInput, client: ClientInfo, by: 'tenant' | 'signee'): Promise<{ request: SigningRequestRow; signingUrl: string }> {
    const now = clock();
    const sender = await deps.sender(found.tenantId);
    const link = newLinkToken();
    const signingUrl = `${deps.publicUrl}/firma/firmar/${link.token}`;
    const { request, emailId } = await repos.transaction(async (tx) => {
      const document = await tx.documents.lockRecord(found.documentId);
      const current = await tx.requests.find(found.id);
      if (!document || !current || current.tokenHash !== found.tokenHash) throw new NotFoundError('Unknown signing link', 'LINK_NOT_FOUND');
      if (current.role === 'cc') throw new ConflictError('A cc has no link to hand on', 'REQUEST_NOT_REASSIGNABLE');
      if (!voidable(current, now)) throw new ConflictError(`A ${current.status} request cannot be reassigned`, 'REQUEST_NOT_REASSIGNABLE');
      if (by === 'signee' && !current.allowReassign) throw new ForbiddenError('The sender did not allow this request to be handed on', 'REASSIGN_NOT_ALLOWED');
      if (current.reassignCount >= MAX_REASSIGNMENTS) throw new ConflictError(`A request is reassigned at most ${MAX_REASSIGNMENTS} times`, 'REASSIGN_LIMIT');
      const from = maskEmail(current.signeeEmail);
      const patch = {
        tokenHash: link.hash,
        sealedToken: deps.links.seal(current.id, link.token),
        signeeEmail: input.signeeEmail,
        signeeName: input.signeeName ?? null,
        reassignCount: current.reassignCount + 1,
        reassignedFrom: from,
        reassignedAt: now,
        reassignReason: input.reason ?? null,
        otpHash: null,
        otpExpiresAt: null,
        otpFailedAttempts: 0,
        lockedAt: null,
        viewedAt: null,
      };
      await tx.requests.update(current.id, patch);
      const request = { ...current, ...patch };
      const waiting = current.status === WAITING;
      await tx.outbox.discardHeld([current.id]);
      const email = signingLinkEmail({
        locale: request.locale,
        signeeName: request.signeeName,
        tenant: sender.name,
        documentTitle: document.title ?? document.filename,
        message: request.message,
        url: signingUrl,
        expiresAt: request.expiresAt,
        brand: { name: sender.name, logoUrl: sender.logoUrl, accentColor: sender.accentColor },
      });
      // A request still waiting for its turn gets its email when the turn comes (release-next-order.ts).
      const emailId = waiting ? null : await tx.outbox.insert({ to: request.signeeEmail, ...email, documentId: document.id, requestId: request.id, kind: 'signing_link' });
      await deps.record(tx, { kind: 'request_reassigned', at: now, request, document, client, from, to: maskEmail(input.signeeEmail), by });
      return { request, emailId };
    });
    if (emailId) await deps.jobs.enqueue('email.send', { emailId });
    return { request, signingUrl };
  };
}

export type ReassignRequest = ReturnType<typeof createReassignRequest>;
