import { ConflictError, GoneError, LockedError, NotFoundError } from '../errors';
import type { DocumentRecord } from '../documents/repository';
import type { ExpireDue, ExpiryRepos } from '../signing-requests/expire-due';
import { hashLinkToken } from '../signing-requests/link-token';
import type { SigningRequestRow } from '../signing-requests/repository';
import { effectiveStatus, signingBlock, WAITING } from '../signing-requests/rules';

/** What a signing link leads to: its request and the request's document. */
export interface OpenedLink {
  request: SigningRequestRow;
  document: DocumentRecord;
}

/** Why a link cannot be used right now (rules.ts `signingBlock`), as the error the API answers. */
export function assertActive(request: SigningRequestRow, now: Date): void {
  const block = signingBlock(request, now);
  if (block === 'signed') throw new ConflictError('This request is already signed', 'ALREADY_SIGNED');
  if (block === 'approved') throw new ConflictError('This request is already approved', 'ALREADY_SIGNED');
  if (block === 'declined') throw new GoneError('This signing request was declined', 'REQUEST_DECLINED');
  if (block === 'waiting') throw new ConflictError('Earlier signatures are still missing: this request waits for its turn', 'NOT_YOUR_TURN');
  if (block === 'expired') throw new GoneError('This signing link has expired', 'REQUEST_EXPIRED');
  if (block === 'cancelled') throw new GoneError('This signing request was cancelled', 'REQUEST_CANCELLED');
  if (block === 'locked') throw new LockedError('Too many wrong codes: this request is locked', 'REQUEST_LOCKED');
}

/**
 * Every signee step starts here: the link's request (expired first if its time has
 * passed, the `request_expired` events published) and its document.
 */
export function createLinkLoader(deps: {
  /** The link's request and document are read. */
  repos: Pick<ExpiryRepos, 'requests' | 'documents'>;
  /** The lazy expiry of the document's requests (and what it blocks), its events published. */
  expiry: Pick<ExpireDue, 'expireDue'>;
  clock: () => Date;
}) {
  const { repos, clock } = deps;

  async function load(token: string): Promise<OpenedLink> {
    const tokenHash = hashLinkToken(token);
    let request = await repos.requests.findByTokenHash(tokenHash);
    if (!request) throw new NotFoundError('Unknown signing link', 'LINK_NOT_FOUND');
    const now = clock();
    // A waiting link: an earlier request's expiry may have cancelled it (expire-due.ts).
    if (effectiveStatus(request, now) !== request.status || request.status === WAITING) {
      await deps.expiry.expireDue(request.documentId, now, { settleBlocked: request.status === WAITING });
      request = (await repos.requests.findByTokenHash(tokenHash))!;
    }
    // The row only: no step of the signee's reads the document's status.
    const document = (await repos.documents.findRecord(request.documentId))!;
    return { request, document };
  }

  return {
    load,
    /** The request and document behind a link whose document may be shown: closed links answer as `/documento` does. */
    async viewable(token: string): Promise<OpenedLink> {
      const { request, document } = await load(token);
      const status = effectiveStatus(request, clock());
      if (status === 'expired' || status === 'cancelled' || document.erasedAt) assertActive(request, clock());
      return { request, document };
    },
  };
}

export type LinkLoader = ReturnType<typeof createLinkLoader>;
