import type { DocumentsRepository } from '../documents/repository';
import type { MailRepository } from '../mail/repository';
import type { EventDocument } from '../signing-events/events';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { OutboxEvent } from '../webhooks/events-repository';
import type { SigningRequestsRepository } from './repository';

/** Taking a turn locks the document row; the release reads the document's requests, frees the due ones and their held emails. */
export type TurnRepos = SigningEventRepos & {
  documents: Pick<DocumentsRepository, 'lockRecord'>;
  requests: Pick<SigningRequestsRepository, 'releaseDue'>;
  outbox: Pick<MailRepository, 'releaseHeld'>;
};

/** What a release did: the emails to enqueue and the `request_ready` webhook events to publish, both after commit. */
export interface Released {
  emailIds: string[];
  outbox: OutboxEvent[];
}

/**
 * The signing order, in the transaction of the step that may end a turn (a signature, an
 * approval). `lockTurn` comes first in that transaction: it takes the document's row lock,
 * so of two requests of one order done at the same moment, the second's `release` runs only
 * after the first has committed, and sees it. So each waiting request is released exactly
 * once (`releaseWaiting` also changes only rows still `waiting`).
 */
export function createSigningTurns(deps: { record: RecordSigningEvents }) {
  return {
    async lockTurn(tx: Pick<TurnRepos, 'documents'>, documentId: string): Promise<void> {
      await tx.documents.lockRecord(documentId);
    },

    /** Every waiting request whose lower orders are all done becomes `pending`; its link email goes out and `request_ready` is recorded. */
    async release(tx: TurnRepos, document: EventDocument, now: Date): Promise<Released> {
      const released = await tx.requests.releaseDue(document.id, now);
      if (released.length === 0) return { emailIds: [], outbox: [] };
      const emailIds = await tx.outbox.releaseHeld(released.map((r) => r.id));
      const outbox = await deps.record(tx, ...released.map((request) => ({ kind: 'request_ready' as const, at: now, request, document })));
      return { emailIds, outbox };
    },
  };
}

export type SigningTurns = ReturnType<typeof createSigningTurns>;
