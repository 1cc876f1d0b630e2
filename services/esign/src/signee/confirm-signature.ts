import { BadRequestError, ConflictError, LockedError, ValidationError } from '../errors';
import type { PdfWorkerPool } from '@firma-riesgo/pdf-core';
import type { JobEnqueuer, Logger } from '@firma-riesgo/service-kit';
import { ipClient, type ClientInfo } from '../audit/client';
import type { UnitOfWork } from '../db/unit-of-work';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import type { sendEmailJob } from '../mail/jobs';
import type { finaliseDocumentJob } from '../signatures/jobs';
import type { SigningTurns, TurnRepos } from '../signing-requests/release-next-order';
import type { SealHandoff, SealRequest } from '../signatures/seal-request';
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
import { INITIALS_KEY } from '../signing-requests/field-schemas';
import { checkFieldValues } from './field-values';
import { normaliseSignatureImage, parseSignatureImage, typedNameImage } from './signature-image';

/**
 * The confirmation takes the document's turn lock, updates the request (if unchanged since
 * the link read it), records `code_failed` or `otp_verified` + `signed` (or `approved`), and
 * releases the next order.
 */
export type ConfirmSignatureRepos = UnitOfWork<
  SigningEventRepos & TurnRepos & { requests: Pick<SigningRequestsRepository, 'signIfUnchanged' | 'updateIfUnchanged' | 'find' | 'allSealed'> }
>;

export interface ConfirmInput {
  code?: string;
  declarationAccepted: boolean;
  imageB64?: string;
  typedName?: string;
  /** The values of the request's text fields and checkboxes by name (`campos`). */
  fieldValues?: Record<string, string | boolean>;
  /** Typed initials for the `initials` fields; default the initials of the name. */
  initials?: string;
  /** Drawn initials (PNG, base64) for the `initials` fields; wins over the typed ones. */
  initialsImageB64?: string;
}

type Outcome =
  | { kind: 'signed'; request: SigningRequestRow; position: number; outbox: OutboxEvent[]; emailIds: string[] }
  | { kind: 'approved'; request: SigningRequestRow; outbox: OutboxEvent[]; emailIds: string[] }
  | { kind: 'wrong'; left: number }
  | { kind: 'expired' };

/**
 * Verifies declaration, image and code, then signs. The request is read once, by the
 * link; the write that signs it (or counts a wrong code) applies only if the row is still
 * as read (`signIfUnchanged`), so of two concurrent confirmations the second finds it
 * signed, and two wrong codes count two. When another step changed the row first, the
 * checks run again on the row as it is now. Wrong codes are counted (committed) before
 * the error is raised; the fifth locks. Once signed: the events are fanned out, and the
 * seal is enqueued and waited for (signatures/seal-request.ts `awaitSeal`).
 */
export function createConfirmSignature(deps: {
  repos: ConfirmSignatureRepos;
  link: LinkLoader;
  files: FileStore;
  /** Worker threads that decode the untrusted signature image off the request thread. */
  pool: Pick<PdfWorkerPool, 'run'>;
  otp: OtpCodes;
  record: RecordSigningEvents;
  /** The seal of the request just signed: its job, waited for (signatures/seal-request.ts). */
  seal: Pick<SealRequest, 'awaitSeal'>;
  /** The confirmation's `document_signed` is fanned out to the tenant's endpoints right after commit. */
  webhooks: Pick<WebhookDelivery, 'dispatch'>;
  jobs: JobEnqueuer<typeof dispatchWebhookEventJob | typeof sendEmailJob | typeof finaliseDocumentJob>;
  /** The signing order: the turn lock, and the release of the next order in the same transaction. */
  turns: SigningTurns;
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
    // An approver approves with the code and the declaration only: no image, no stamp.
    const approver = current.role === 'approver';
    // The fields' values are checked before the code: a missing or malformed value leaves the code usable.
    const fieldValues = current.fields ? { ...checkFieldValues(current.fields, input.fieldValues), ...(input.initials ? { [INITIALS_KEY]: input.initials } : {}) } : null;
    const parsed = input.imageB64 && !approver ? parseSignatureImage(input.imageB64) : null;
    // A drawn signature wins; a typed name is set as an image of the pad's size (on a worker thread).
    const signatureKind = parsed ? 'drawn' : input.typedName ? 'typed' : null;
    const image = parsed
      ? await normaliseSignatureImage(deps.pool, parsed, ipClient(client))
      : input.typedName && !approver
        ? await typedNameImage(deps.pool, input.typedName, ipClient(client))
        : null;
    // Written before the transaction under a name of its own: the loser of a race
    // deletes only its own file.
    // Drawn initials: checked as the signature image is, and only for a request with initials fields.
    const wantsInitials = !approver && Boolean(current.fields?.some((f) => f.type === 'initials'));
    const initialsPng = input.initialsImageB64 && wantsInitials ? await normaliseSignatureImage(deps.pool, parseSignatureImage(input.initialsImageB64, 'iniciales_imagen_b64'), ipClient(client), 'iniciales_imagen_b64') : null;
    const imageKey = image ? storageKeys.signatureImage(document.id, current.id) : null;
    const initialsImageKey = initialsPng ? storageKeys.initialsImage(document.id, current.id) : null;
    if (image && imageKey) await files.write(imageKey, image);
    if (initialsPng && initialsImageKey) await files.write(initialsImageKey, initialsPng);
    let outcome: Outcome | undefined;
    try {
      outcome = await repos.transaction(async (tx): Promise<Outcome> => {
        // The document's turn lock first: of two signers of one order, the second sees the first signed and releases the next order.
        await deps.turns.lockTurn(tx, current.documentId);
        // The link's row first; read again only when a guarded write finds it changed.
        for (let request = current; ; request = (await tx.requests.find(request.id))!) {
          assertActive(request, now);
          const code = otpState(request, now);
          if (code === 'none') throw new ConflictError('Ask for a code first', 'OTP_NOT_REQUESTED');
          if (code === 'expired') return { kind: 'expired' };
          if (!deps.otp.matches(request.otpHash!, request.id, input.code!)) {
            const { failures, left, locks } = afterWrongCode(request);
            const counted = await tx.requests.updateIfUnchanged(request, { otpFailedAttempts: failures, ...(locks ? { lockedAt: now, otpHash: null, otpExpiresAt: null } : {}) });
            if (!counted) continue;
            await deps.record(tx, { kind: 'code_failed', at: now, request, document, client, attemptsLeft: left, locked: locks });
            return { kind: 'wrong', left };
          }
          if (approver) {
            const approvedPatch = { status: 'approved' as const, signedAt: now, otpHash: null, otpExpiresAt: null, sealedToken: null, nextReminderAt: null };
            if (!(await tx.requests.updateIfUnchanged(request, approvedPatch))) continue;
            const outbox = await deps.record(tx, { kind: 'approved', at: now, request, document, client });
            const released = await deps.turns.release(tx, document, now);
            return { kind: 'approved', request: { ...request, ...approvedPatch }, outbox: [...outbox, ...released.outbox], emailIds: released.emailIds };
          }
          const signed = await tx.requests.signIfUnchanged(request, { at: now, imageKey, fieldValues, initialsImageKey });
          if (!signed) continue;
          // `otp_verified` then `signed`, in one insert (their ids follow that order).
          const outbox = await deps.record(tx, { kind: 'signed', at: now, request, document, client, signatureImage: signatureKind, signatureLevel: deps.signatureLevel });
          const released = await deps.turns.release(tx, document, now);
          return { kind: 'signed', request: signed.row, position: signed.position, outbox: [...outbox, ...released.outbox], emailIds: released.emailIds };
        }
      });
    } finally {
      if (imageKey && outcome?.kind !== 'signed') await files.remove(imageKey);
      if (initialsImageKey && outcome?.kind !== 'signed') await files.remove(initialsImageKey);
    }
    if (outcome.kind === 'expired') throw new BadRequestError('The code has expired; ask for a new one', 'OTP_EXPIRED');
    if (outcome.kind === 'wrong') {
      if (outcome.left === 0) throw new LockedError('Five wrong codes: this request is locked', 'REQUEST_LOCKED');
      throw new BadRequestError(`Incorrect code; ${outcome.left} attempt${outcome.left === 1 ? '' : 's'} left`, 'INVALID_OTP');
    }
    // The next order's link emails (released in the transaction).
    for (const emailId of outcome.emailIds) await deps.jobs.enqueue('email.send', { emailId });
    // The outbox rows as inserted go to the fan-out: it does not read them back.
    await dispatchWebhookEventsNow(deps.webhooks, outcome.outbox, deps.logger);
    if (outcome.kind === 'approved') {
      // No seal for an approval: it may be the last part the final PDF waited for.
      if (await repos.requests.allSealed(document.id)) await deps.jobs.enqueue('document.finalise', { documentId: document.id });
      return { request: outcome.request, record: statusRecord(outcome.request, clock(), []) };
    }
    // The seal job takes the rows and the PNG from memory when it runs here; the request
    // is read again only when it was not sealed here within the wait.
    const handoff: SealHandoff = { request: outcome.request, document, position: outcome.position, image };
    const signed = (await deps.seal.awaitSeal(handoff)) ?? (await repos.requests.find(outcome.request.id))!;
    return { request: signed, record: statusRecord(signed, clock(), []) };
  };
}
