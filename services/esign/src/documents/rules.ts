import { COPY_ROLE, DECLINED, DONE_STATUSES, effectiveStatus, WAITING, type RequestRole, type RequestStatus } from '../signing-requests/rules';

export const DOCUMENT_STATUSES = ['draft', 'pending', 'signed', 'expired', 'erased', 'declined'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** What a document's status is decided from (repository.ts computes the same facts in SQL). */
export interface DocumentFacts {
  erased: boolean;
  /** A signee declined a request (the others were cancelled). */
  declined: boolean;
  /** No request that takes part (a cc does not), or only cancelled ones. */
  noRequests: boolean;
  /** Any request that takes part still signable at `now`, or waiting for its turn. */
  hasPending: boolean;
  /** Every request that takes part and is not cancelled is done (signed or approved). */
  allSigned: boolean;
}

/**
 * A document's status, stated once: the first fact that holds decides, in this order;
 * when none holds, `DOCUMENT_STATUS_OTHERWISE`. So: erased once erased; draft without a
 * (non-cancelled) request (declined once a signee declined); pending while one can still be signed; signed when all are;
 * expired when none is pending and some expired unsigned (a pending request past its
 * expiry counts as expired before anyone reads it). `documentStatus` evaluates it on
 * facts; repository.ts builds its SQL `case` from the same list.
 */
export const DOCUMENT_STATUS_RULE = [
  { when: 'erased', status: 'erased' },
  { when: 'declined', status: 'declined' },
  { when: 'noRequests', status: 'draft' },
  { when: 'hasPending', status: 'pending' },
  { when: 'allSigned', status: 'signed' },
] as const satisfies readonly { when: keyof DocumentFacts; status: DocumentStatus }[];
export const DOCUMENT_STATUS_OTHERWISE = 'expired' satisfies DocumentStatus;

export function documentStatus(facts: DocumentFacts): DocumentStatus {
  return DOCUMENT_STATUS_RULE.find((rule) => facts[rule.when])?.status ?? DOCUMENT_STATUS_OTHERWISE;
}

/** The facts from the document's requests themselves, at `now`. */
export function documentFacts(doc: { erasedAt: Date | null }, requests: { status: RequestStatus; expiresAt: Date; role?: RequestRole }[], now: Date): DocumentFacts {
  const live = requests.filter((r) => r.status !== 'cancelled' && r.role !== COPY_ROLE);
  return {
    erased: doc.erasedAt !== null,
    declined: requests.some((r) => r.status === DECLINED),
    noRequests: live.length === 0,
    hasPending: live.some((r) => effectiveStatus(r, now) === 'pending' || r.status === WAITING),
    allSigned: live.every((r) => (DONE_STATUSES as readonly RequestStatus[]).includes(r.status)),
  };
}

/**
 * Who may download a document's signed PDF (interface §7): its tenant, or a superadmin;
 * anyone else is refused with 403, not hidden with 404.
 */
export function signedPdfAccess(principal: { tenantId: string; role: 'tenant' | 'superadmin' }, doc: { tenantId: string }): 'allowed' | 'forbidden' {
  return doc.tenantId === principal.tenantId || principal.role === 'superadmin' ? 'allowed' : 'forbidden';
}

/** The request whose sealed copy is "the signed PDF" of the document: the first one signed. */
export function firstSigned<R extends { status: RequestStatus; signedAt: Date | null }>(requests: R[]): R | undefined {
  return requests.filter((r) => r.status === 'signed' && r.signedAt).sort((a, b) => a.signedAt!.getTime() - b.signedAt!.getTime())[0];
}
