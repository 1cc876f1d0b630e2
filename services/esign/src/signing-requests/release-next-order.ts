import type { Sender } from '../branding/service';
import type { DocumentRecord, DocumentsRepository } from '../documents/repository';
import type { MailRepository } from '../mail/repository';
import type { EventDocument } from '../signing-events/events';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { OutboxEvent } from '../webhooks/events-repository';
import { signingLinkEmail } from './emails';
import type { SigningRequestsRepository } from './repository';
import type { LinkSealer } from './sealed-link';

/** Taking a turn locks the document row; the release reads the document's requests, frees the due ones and writes their link emails. */
export type TurnRepos = SigningEventRepos & {
  documents: Pick<DocumentsRepository, 'lockRecord'>;
  requests: Pick<SigningRequestsRepository, 'releaseDue'>;
  outbox: Pick<MailRepository, 'insert' | 'discardHeld'>;
};

/** What a release did: the emails to enqueue and the `request_ready` webhook events to publish, both after commit. */
export interface Released {
  emailIds: string[];
  outbox: OutboxEvent[];
}

/**
 * The signing order, in the transaction of the step that may end a turn (a signature, an
 * approval, a void). `lockTurn` comes first in that transaction: it takes the document's row
 * lock, so of two requests of one order done at the same moment, the second's `release` runs
 * only after the first has committed, and sees it. So each waiting request is released
 * exactly once (`releaseDue` also changes only rows still `waiting`).
 *
 * A released request's validity counts from its release (repository `releaseDue`: the
 * window it was created with, `expires_at - created_at`, from now, never shorter than
 * before), so a request that waited longer than its window does not arrive expired. Its
 * link email is therefore written at the release, with the date it really expires; the copy
 * held since its creation, which stated the creation-time date, is discarded.
 */
export function createSigningTurns(deps: { record: RecordSigningEvents; sender: (tenantId: string) => Promise<Sender>; links: LinkSealer; publicUrl: string }) {
  return {
    async lockTurn(tx: Pick<TurnRepos, 'documents'>, documentId: string): Promise<void> {
      await tx.documents.lockRecord(documentId);
    },

    /** Every waiting request whose lower orders are all done becomes `pending`; its link email goes out and `request_ready` is recorded. */
    async release(tx: TurnRepos, document: EventDocument & Pick<DocumentRecord, 'title' | 'filename'>, now: Date): Promise<Released> {
      const released = await tx.requests.releaseDue(document.id, now);
      if (released.length === 0) return { emailIds: [], outbox: [] };
      await tx.outbox.discardHeld(released.map((r) => r.id));
      const sender = await deps.sender(document.tenantId);
      const emailIds: string[] = [];
      for (const request of released) {
        if (!request.sealedToken) continue;
        const email = signingLinkEmail({
          locale: request.locale,
          signeeName: request.signeeName,
          tenant: sender.name,
          documentTitle: document.title ?? document.filename,
          message: request.message,
          url: `${deps.publicUrl}/firma/firmar/${deps.links.open(request.id, request.sealedToken)}`,
          expiresAt: request.expiresAt,
          brand: { name: sender.name, logoUrl: sender.logoUrl, accentColor: sender.accentColor },
        });
        emailIds.push(await tx.outbox.insert({ to: request.signeeEmail, ...email, documentId: document.id, requestId: request.id, kind: 'signing_link' }));
      }
      const outbox = await deps.record(tx, ...released.map((request) => ({ kind: 'request_ready' as const, at: now, request, document })));
      return { emailIds, outbox };
    },
  };
}

export type SigningTurns = ReturnType<typeof createSigningTurns>;
