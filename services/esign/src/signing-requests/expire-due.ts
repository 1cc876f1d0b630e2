import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import type { Sender } from '../branding/service';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { sendEmailJob } from '../mail/jobs';
import type { MailRepository } from '../mail/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { OutboxEvent } from '../webhooks/events-repository';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import { publishWebhookEvents } from '../webhooks/publish';
import { cancelRequests } from './cancel-requests';
import type { SigningRequestsRepository } from './repository';
import { cancelledByExpiry, COPY_ROLE } from './rules';

export type ExpiryRepos = UnitOfWork<
  SigningEventRepos & {
    requests: SigningRequestsRepository;
    documents: DocumentsRepository;
    outbox: Pick<MailRepository, 'insert' | 'discardHeld'>;
  }
>;

/**
 * The lazy half of the expiry rule (rules.ts `EXPIRY`): the document's pending requests
 * past their expiry become `expired`, each recorded as a `request_expired` event at its
 * expiry time. Called wherever a document's requests are about to be read, and by the
 * reminder sweep for documents whose expiry blocks a waiting request (repository
 * `blockedByExpiry`).
 *
 * An expired signer or approver blocks the signing order for good (rules.ts
 * `cancelledByExpiry`). Then, in a second transaction under the document's row lock (as a
 * confirmation, a decline or an erasure takes it first, so the expiry's own update never
 * waits for it while holding request rows), the document's waiting requests are cancelled
 * (reason `expired`), their held link emails discarded, and each signee told by email. A
 * crash between the two leaves the document for the sweep. After commit the emails are
 * queued and the webhook events published.
 */
export function createExpireDue(deps: {
  repos: ExpiryRepos;
  record: RecordSigningEvents;
  sender: (tenantId: string) => Promise<Sender>;
  jobs: JobEnqueuer<typeof sendEmailJob | typeof dispatchWebhookEventJob>;
}) {
  const { repos } = deps;

  /** The document's waiting requests that an expiry blocked for good, cancelled and told. */
  async function cancelBlocked(documentId: string, now: Date): Promise<{ outbox: OutboxEvent[]; emailIds: string[] }> {
    return repos.transaction(async (tx) => {
      const document = await tx.documents.lockRecord(documentId);
      if (!document || document.erasedAt) return { outbox: [], emailIds: [] };
      const blocked = cancelledByExpiry(await tx.requests.listForDocument(documentId), now);
      if (blocked.length === 0) return { outbox: [], emailIds: [] };
      const sender = await deps.sender(document.tenantId);
      const emailIds = await cancelRequests(tx, { requests: blocked, document, sender, now, cause: 'expired', cancelReason: 'expired' });
      const outbox = await deps.record(tx, ...blocked.map((other) => ({ kind: 'request_cancelled' as const, at: now, request: other, document, reason: 'expired' as const })));
      return { outbox, emailIds };
    });
  }

  /** The lazy expiry of the document's due requests; then, when a signer or approver expired (or `always`), the waiting requests it blocked. */
  async function settle(documentId: string, now: Date, always: boolean): Promise<number> {
    const expired = await repos.transaction(async (tx) => {
      const rows = await tx.requests.expireDue({ documentId }, now);
      if (rows.length === 0) return { rows, outbox: [] };
      const document = (await tx.documents.find(documentId, now))!;
      return { rows, outbox: await deps.record(tx, ...rows.map((request) => ({ kind: 'request_expired' as const, request, document }))) };
    });
    const cancelled = always || expired.rows.some((r) => r.role !== COPY_ROLE) ? await cancelBlocked(documentId, now) : { outbox: [], emailIds: [] };
    for (const emailId of cancelled.emailIds) await deps.jobs.enqueue('email.send', { emailId });
    await publishWebhookEvents(deps.jobs, [...expired.outbox, ...cancelled.outbox]);
    return cancelled.emailIds.length;
  }

  return {
    /**
     * Before a document's requests are read. `settleBlocked`: look for waiting requests an
     * earlier expiry blocked even when none expires now (a waiting link being opened).
     */
    async expireDue(documentId: string, now: Date, options: { settleBlocked?: boolean } = {}): Promise<void> {
      await settle(documentId, now, options.settleBlocked ?? false);
    },
    /** The reminder sweep's part: every document whose waiting requests an expiry blocked (at most 200 a round); answers how many requests it cancelled. */
    async settleBlocked(now: Date): Promise<number> {
      let cancelled = 0;
      for (const documentId of await repos.requests.documentsBlockedByExpiry(now)) cancelled += await settle(documentId, now, true);
      return cancelled;
    },
  };
}

export type ExpireDue = ReturnType<typeof createExpireDue>;
