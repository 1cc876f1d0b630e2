import type { ClientInfo } from '../audit/client';
import type { DocumentRow } from '../documents/repository';
import type { SigningRequestRow } from '../signing-requests/repository';

/** The document an event is about: its id, owner and hash (the audit trail records the hash). */
export type EventDocument = Pick<DocumentRow, 'id' | 'tenantId' | 'sha256'>;
/** The request an event is about. */
export type EventRequest = Pick<SigningRequestRow, 'id' | 'tenantId' | 'signeeEmail'>;
export type EventDetails = Record<string, string | number | boolean | null>;

/** A step someone took through a link or the API: who (the client), on what, and when. */
interface Step {
  at: Date;
  request: EventRequest;
  document: EventDocument;
  client: ClientInfo;
}

/**
 * What happened, described once: `recordSigningEvents` (record-event.ts) writes its audit
 * rows, its webhook outbox row and its meter counts, as `SIGNING_EVENTS` (event-table.ts)
 * says for its kind. `at` is when it happened (the audit time, and the day it is counted on).
 */
export type SigningEvent =
  /** The API created a request (and queued its link email). */
  | (Omit<Step, 'request'> & { kind: 'request_created'; request: EventRequest & Pick<SigningRequestRow, 'expiresAt' | 'locale'> })
  /** The mail job handed a request's link or code email to SMTP. */
  | { kind: 'email_sent'; at: Date; document: EventDocument & Pick<DocumentRow, 'erasedAt'>; requestId: string; to: string; email: 'signing_link' | 'otp' | 'completion' | 'other' }
  /** The signee opened the signing page while the request could be signed. */
  | (Step & { kind: 'link_opened' })
  /** The signee fetched the PDF or a page image (at most once a minute per request). */
  | (Step & { kind: 'document_viewed'; via: 'pdf' | 'pages'; page?: number })
  /** A code was sent after the signee accepted the declaration. */
  | (Step & { kind: 'code_sent' })
  /** A wrong code: the attempts left, and whether this one locked the request. */
  | (Step & { kind: 'code_failed'; attemptsLeft: number; locked: boolean })
  /** An approver gave the right code and accepted the declaration: the request is approved (no image, no stamp). */
  | (Step & { kind: 'approved' })
  /** Every request of a lower order is done: this waiting request became pending, and its link email went out. */
  | { kind: 'request_ready'; at: Date; request: Pick<SigningRequestRow, 'id' | 'tenantId' | 'signeeEmail' | 'signingOrder' | 'role'>; document: EventDocument }
  /** The completion copy (the final PDF attached, or a link to it) was queued for a signee, approver or cc. */
  | { kind: 'completion_copy_queued'; at: Date; request: Pick<SigningRequestRow, 'id' | 'role'>; document: EventDocument; delivery: 'attached' | 'link' }
  /** The right code: the request is signed, with a drawn, a typed or no signature image. */
  | (Step & { kind: 'signed'; signatureImage: 'drawn' | 'typed' | null; signatureLevel: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA' })
  /**
   * The signee's copy was sealed. No `at`: the audit row takes the database write's time,
   * as it always has.
   */
  | { kind: 'sealed'; request: Pick<SigningRequestRow, 'id'>; document: EventDocument; seal: { level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA'; tsaTime: Date | null; sha256: string } }
  /** The lazy update found a pending request past its expiry: recorded at the expiry time. */
  | { kind: 'request_expired'; request: Pick<SigningRequestRow, 'id' | 'tenantId' | 'expiresAt'>; document: EventDocument }
  /** An open request was cancelled: its document was erased, another signee declined, the tenant voided it, or a lower order expired (its turn can never come). */
  | { kind: 'request_cancelled'; at: Date; request: Pick<SigningRequestRow, 'id'>; document: EventDocument; reason: 'document_erased' | 'declined' | 'voided' | 'expired' }
  /** A reminder (scheduled or manual) or the expiry warning was queued, with the link again. */
  | { kind: 'reminder_queued'; at: Date; request: Pick<SigningRequestRow, 'id' | 'tenantId'>; document: EventDocument; reminder: 'reminder' | 'expiry_warning'; manual: boolean; n: number }
  /** The tenant or the signee handed the request to someone else: both addresses masked. */
  | (Step & { kind: 'request_reassigned'; from: string; to: string; by: 'tenant' | 'signee' })
  /** The signee declined, with a reason (kept on the request and sent to webhooks; never in the audit details). */
  | (Step & { kind: 'request_declined'; reason: string })
  /** Every request is sealed and the final PDF is recorded. */
  | { kind: 'document_completed'; at: Date; document: EventDocument; final: { sha256: string; level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA'; tsaTime: Date | null } }
  /** The document was erased (its pending requests cancelled, its personal data anonymised). */
  | { kind: 'document_erased'; at: Date; document: EventDocument & Pick<DocumentRow, 'sizeBytes'>; requestsAnonymised: number; eventsAnonymised: number }
  /** A document was stored; one rendered from a contract template says so in its trail. */
  | { kind: 'document_uploaded'; at: Date; document: EventDocument & Pick<DocumentRow, 'sizeBytes'>; generated?: EventDetails };

export type SigningEventKind = SigningEvent['kind'];
