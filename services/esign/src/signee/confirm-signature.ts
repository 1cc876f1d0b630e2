import { BadRequestError, ConflictError, LockedError, ValidationError } from '../errors';
import type { PdfWorkerPool } from '@firma-riesgo/pdf-core';
import type { JobEnqueuer, Logger } from '@firma-riesgo/service-kit';
import { ipClient, type ClientInfo } from '../audit/client';
import type { UnitOfWork } from '../db/unit-of-work';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import type { SealRequest } from '../signatures/seal-request';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { OtpCodes } from '../signing-requests/otp-code';
import { statusRecord } from '../signing-requests/records';
import type { SigningRequestRow, SigningRequestsRepository } from '../signing-requests/repository';
import { afterWrongCode, otpState } from '../signing-requests/rules';
import { storageKeys, type FileStore } from '../storage/file-store';
import type { WebhookDelivery } from '../webhooks/delivery';
import type { OutboxEvent } from '../webhooks/events-repository';
import { dispatchWebhookEventsNow } from '../webhooks/publish';
import { assertActive, type LinkLoader } from './link';
import { normaliseSignatureImage, parseSignatureImage, typedNameImage } from './signature-image';

/** The confirmation locks and updates the request and records `code_failed` or `otp_verified` + `signed`. */
export type ConfirmSignatureRepos = UnitOfWork<SigningEventRepos & { requests: Pick<SigningRequestsRepository, 'lockByTokenHash' | 'update' | 'find'> }>;

export interface ConfirmInput {
  code?: string;
  declarationAccepted: boolean;
  imageB64?: string;
  typedName?: string;
}

type Outcome = { kind: 'signed'; request: SigningRequestRow; outbox: OutboxEvent[] } | { kind: 'wrong'; left: number } | { kind: 'expired' };

/**
 * Verifies declaration, image and code, then signs. The request row is locked for the
 * check-and-sign, so of two concurrent confirmations the second finds it signed. Wrong
 * codes are counted (committed) before the error is raised; the fifth locks.
 */
export function createConfirmSignature(deps: {
  repos: ConfirmSignatureRepos;
  link: LinkLoader;
  files: FileStore;
  /** Worker threads that decode the untrusted signature image off the request thread. */
  pool: Pick<PdfWorkerPool, 'run'>;
  otp: OtpCodes;
  record: RecordSigningEvents;
  /** The seal of the request just signed, inline (signatures/seal-request.ts). */
  seal: Pick<SealRequest, 'sealOrRetryLater'>;
  /** The confirmation's `document_signed` is fanned out to the tenant's endpoints right after commit. */
  webhooks: Pick<WebhookDelivery, 'dispatch'>;
  jobs: JobEnqueuer<typeof dispatchWebhookEventJob>;
  /** The PAdES level seals are applied at (B-T with TSA_URL): the `document_signed` event says it. */
  signatureLevel: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';
  logger: Logger;
  clock: () => Date;
}) {
  const { repos, files, clock } = deps;
  return async function confirmSignature(token: string, input: ConfirmInput, client: ClientInfo) {
    if (!input.declarationAccepted) throw ValidationError.single('body', 'declaration_accepted', 'The declaration must be accepted to sign', 'declaration_required');
    if (!input.code || !/^\d{6}$/.test(input.code)) throw ValidationError.single('body', 'otp_code', 'The code has 6 digits', 'code_format');
    // The link first: no image work at all for an unknown or closed link. Then the
    // image's structure (cheap, here), then its pixels (on a worker thread).
    const { request: current, document } = await deps.link.load(token);
    const now = clock();
    assertActive(current, now);
    const parsed = input.imageB64 ? parseSignatureImage(input.imageB64) : null;
    // A drawn signature wins; a typed name is set as an image of the pad's size (on a worker thread).
    const signatureKind = parsed ? 'drawn' : input.typedName ? 'typed' : null;
    const image = parsed
      ? await normaliseSignatureImage(deps.pool, parsed, ipClient(client))
      : input.typedName
        ? await typedNameImage(deps.pool, input.typedName, ipClient(client))
        : null;
    // Written before the transaction under a name of its own: the loser of a race
    // deletes only its own file.
    const imageKey = image ? storageKeys.signatureImage(document.id, current.id) : null;
    if (image && imageKey) await files.write(imageKey, image);
    let outcome: Outcome | undefined;
    try {
      outcome = await repos.transaction(async (tx): Promise<Outcome> => {
        const request = (await tx.requests.lockByTokenHash(current.tokenHash))!;
        assertActive(request, now);
        const code = otpState(request, now);
        if (code === 'none') throw new ConflictError('Ask for a code first', 'OTP_NOT_REQUESTED');
        if (code === 'expired') return { kind: 'expired' };
        if (!deps.otp.matches(request.otpHash!, request.id, input.code!)) {
          const { failures, left, locks } = afterWrongCode(request);
          await tx.requests.update(request.id, { otpFailedAttempts: failures, ...(locks ? { lockedAt: now, otpHash: null, otpExpiresAt: null } : {}) });
          await deps.record(tx, { kind: 'code_failed', at: now, request, document, client, attemptsLeft: left, locked: locks });
          return { kind: 'wrong', left };
        }
        const signedPatch = {
          status: 'signed' as const,
          signedAt: now,
          otpHash: null,
          otpExpiresAt: null,
          sealStatus: 'sealing' as const,
          signatureImageKey: imageKey,
          hasSignatureImage: Boolean(imageKey),
        };
        await tx.requests.update(request.id, signedPatch);
        // `otp_verified` then `signed`, in one insert (their ids follow that order).
        const outbox = await deps.record(tx, { kind: 'signed', at: now, request, document, client, signatureImage: signatureKind, signatureLevel: deps.signatureLevel });
        // The locked row as this transaction leaves it: the inline seal needs no second read.
        return { kind: 'signed', request: { ...request, ...signedPatch }, outbox };
      });
    } finally {
      if (imageKey && outcome?.kind !== 'signed') await files.remove(imageKey);
    }
    if (outcome.kind === 'expired') throw new BadRequestError('The code has expired; ask for a new one', 'OTP_EXPIRED');
    if (outcome.kind === 'wrong') {
      if (outcome.left === 0) throw new LockedError('Five wrong codes: this request is locked', 'REQUEST_LOCKED');
      throw new BadRequestError(`Incorrect code; ${outcome.left} attempt${outcome.left === 1 ? '' : 's'} left`, 'INVALID_OTP');
    }
    // The outbox rows as inserted go to the fan-out: it does not read them back.
    await dispatchWebhookEventsNow(deps.webhooks, deps.jobs, outcome.outbox, deps.logger);
    // The sealed row as recorded; read again only when the seal was not recorded here.
    // The PNG just written is stamped from memory, not read back.
    const signed = (await deps.seal.sealOrRetryLater(outcome.request, document, image)) ?? (await repos.requests.find(outcome.request.id))!;
    return { request: signed, record: statusRecord(signed, clock()) };
  };
}
