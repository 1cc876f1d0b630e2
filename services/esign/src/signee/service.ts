import { BadRequestError, ConflictError, GoneError, LockedError, NotFoundError, RateLimitedError, ValidationError } from '../errors';
import type { JobEnqueuer, Logger } from '@firma-riesgo/service-kit';
import { ipClient, type ClientInfo } from '../audit/client';
import type { Sender } from '../branding/service';
import type { AuditRepository } from '../audit/repository';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentRow, DocumentsRepository } from '../documents/repository';
import type { sendEmailJob } from '../mail/jobs';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import type { MailRepository } from '../mail/repository';
import type { WebhookDelivery } from '../webhooks/delivery';
import { dispatchWebhookEventsNow, publishWebhookEvents } from '../webhooks/publish';
import type { SignaturesService } from '../signatures/service';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import { otpEmail } from '../signing-requests/emails';
import { newOtpCode, type OtpCodes } from '../signing-requests/otp-code';
import { maskEmail } from '../signing-requests/mask-email';
import { expireDueRequests } from '../signing-requests/expire-due';
import { hashLinkToken } from '../signing-requests/link-token';
import { statusRecord } from '../signing-requests/records';
import type { SigningRequestRow, SigningRequestsRepository } from '../signing-requests/repository';
import { afterWrongCode, effectiveStatus, OTP_SENDS_PER_HOUR, OTP_TTL_SECONDS, otpSendAllowance, otpState, signingBlock } from '../signing-requests/rules';
import { storageKeys, type FileStore } from '../storage/file-store';
import type { ExtractedText, PdfWorkerPool } from '@firma-riesgo/pdf-core';
import { normaliseSignatureImage, parseSignatureImage, typedNameImage } from './signature-image';

/** Widths the signing page asks page images in (its srcset); nothing else is rendered. */
export const PAGE_IMAGE_WIDTHS = [480, 960, 1440] as const;
export type PageImageWidth = (typeof PAGE_IMAGE_WIDTHS)[number];
/** One page image at most this many pixels (a 1440-wide A4 page is about 2.9 million). */
const PAGE_IMAGE_MAX_PIXELS = 8_000_000;
const A4_WIDTH_PT = 595.28;
/** `document_viewed` is recorded at most once per this per request. */
const VIEW_EVENT_EVERY_MS = 60_000;

type SigneeTables = SigningEventRepos & {
  requests: SigningRequestsRepository;
  documents: DocumentsRepository;
  audit: Pick<AuditRepository, 'countSince' | 'has'>;
  outbox: MailRepository;
};

/** The signee flow reads its request and document, and writes the request, its events and the code email. */
export type SigneeRepos = UnitOfWork<SigneeTables>;

export interface SigneeDeps {
  repos: SigneeRepos;
  /** The sender as signees see it (branding): the page and the code email show it. */
  sender: (tenantId: string) => Promise<Sender>;
  files: FileStore;
  jobs: JobEnqueuer<typeof sendEmailJob | typeof dispatchWebhookEventJob>;
  signatures: Pick<SignaturesService, 'sealOrRetryLater'>;
  /** The confirmation's `document_signed` is fanned out to the tenant's endpoints right after commit. */
  webhooks: Pick<WebhookDelivery, 'dispatch'>;
  /** Worker threads that decode the untrusted signature image off the request thread. */
  pool: Pick<PdfWorkerPool, 'run'>;
  /** Writes each step's audit rows, webhook event and counts in the step's transaction. */
  record: RecordSigningEvents;
  /** The PAdES level seals are applied at (B-T with TSA_URL): the `document_signed` event says it. */
  signatureLevel: 'B-B' | 'B-T';
  logger: Logger;
  /** Signing codes are stored as an HMAC under the server's key (signing-requests/otp-code.ts). */
  otp: OtpCodes;
  clock?: () => Date;
}

export interface SigningContext {
  request: SigningRequestRow;
  document: DocumentRow;
  tenant: string;
  status: SigningRequestRow['status'];
  /** Whether a code was sent and is still usable. */
  otpOutstanding: boolean;
  /** The tenant's logo and accent colour, when it has set them. */
  brand: { logoPath: string | null; accentColor: string | null };
  /** The text of each page, for screen readers and copying; null when it cannot be read. */
  text: ExtractedText | null;
}

/** The document text shown under the page images: the pages the page shows, 200,000 characters at most. */
export const TEXT_MAX_PAGES = 100;
export const TEXT_MAX_CHARS = 200_000;

/** Why a link cannot be used right now (rules.ts `signingBlock`), as the error the API answers. */
function assertActive(request: SigningRequestRow, now: Date): void {
  const block = signingBlock(request, now);
  if (block === 'signed') throw new ConflictError('This request is already signed', 'ALREADY_SIGNED');
  if (block === 'expired') throw new GoneError('This signing link has expired', 'REQUEST_EXPIRED');
  if (block === 'cancelled') throw new GoneError('This signing request was cancelled', 'REQUEST_CANCELLED');
  if (block === 'locked') throw new LockedError('Too many wrong codes: this request is locked', 'REQUEST_LOCKED');
}

export function createSigneeService(deps: SigneeDeps) {
  const { repos, files } = deps;
  const clock = deps.clock ?? (() => new Date());

  async function load(token: string): Promise<{ request: SigningRequestRow; document: DocumentRow }> {
    const tokenHash = hashLinkToken(token);
    let request = await repos.requests.findByTokenHash(tokenHash);
    if (!request) throw new NotFoundError('Unknown signing link', 'LINK_NOT_FOUND');
    const now = clock();
    if (effectiveStatus(request, now) !== request.status) {
      await publishWebhookEvents(deps.jobs, await expireDueRequests(repos, deps.record, request.documentId, now));
      request = (await repos.requests.findByTokenHash(tokenHash))!;
    }
    const document = (await repos.documents.find(request.documentId, now))!;
    return { request, document };
  }

  /** The request and document behind a link whose document may be shown: closed links answer as `/documento` does. */
  async function viewable(token: string): Promise<{ request: SigningRequestRow; document: DocumentRow }> {
    const { request, document } = await load(token);
    const status = effectiveStatus(request, clock());
    if (status === 'expired' || status === 'cancelled' || document.erasedAt) assertActive(request, clock());
    return { request, document };
  }

  /**
   * `document_viewed` (audit, and the webhook event), at most once a minute per request:
   * the PDF or a page image, whichever the signee fetched (`details.via`). The code step
   * accepts either.
   */
  async function recordView(request: SigningRequestRow, document: DocumentRow, client: ClientInfo, how: { via: 'pdf' | 'pages'; page?: number }): Promise<void> {
    const now = clock();
    const eventIds = await repos.transaction(async (tx) => {
      // The row as it is now, locked as erasure locks it: an erasure that ran meanwhile has
      // cancelled it or replaced its address, so nothing personal is written after it.
      const current = await tx.requests.lockByTokenHash(request.tokenHash);
      if (!current || current.status === 'cancelled') return [];
      if ((await tx.audit.countSince(current.id, 'document_viewed', new Date(now.getTime() - VIEW_EVENT_EVERY_MS))).n > 0) return [];
      await tx.requests.markViewed(current.id, now);
      return deps.record(tx, { kind: 'document_viewed', at: now, request: current, document, client, via: how.via, page: how.page });
    });
    await publishWebhookEvents(deps.jobs, eventIds);
  }

  /**
   * After a cache write (page images, text): an erasure that began meanwhile has already
   * removed the document's files, so what was just written would outlive it. Re-checked
   * after the write, as the seal does: the document's files are removed again.
   */
  async function erasedMeanwhile(documentId: string): Promise<boolean> {
    const current = await repos.documents.find(documentId, clock());
    if (current && !current.erasedAt) return false;
    await files.removeTree(storageKeys.documentDir(documentId));
    return true;
  }

  /**
   * The document's text, read once on a worker thread and kept with its files (a cache,
   * erased with them). A PDF whose text cannot be read still shows its pages.
   */
  async function documentText(document: DocumentRow, client: ClientInfo): Promise<ExtractedText | null> {
    const key = storageKeys.pageText(document.id);
    const cached = await files.read(key);
    if (cached) return JSON.parse(cached.toString('utf8')) as ExtractedText;
    const original = await files.read(storageKeys.original(document.id));
    if (!original) return null;
    try {
      const text = await deps.pool.run('extract-text', { pdf: original, maxPages: TEXT_MAX_PAGES, maxChars: TEXT_MAX_CHARS }, { timeoutMs: 20_000, client: ipClient(client) });
      await files.write(key, Buffer.from(JSON.stringify(text)));
      if (await erasedMeanwhile(document.id)) return null;
      return text;
    } catch (err) {
      deps.logger.warn({ err, documentId: document.id }, 'could not read the text of a document for its signing page');
      return null;
    }
  }

  return {
    /** The signing page's data; records `link_opened` while the request can still be signed. */
    async openPage(token: string, client: ClientInfo): Promise<SigningContext> {
      const { request, document } = await load(token);
      const now = clock();
      const status = effectiveStatus(request, now);
      if (status === 'pending' && !request.lockedAt) {
        // Under the request's lock, re-read: an erasure in between leaves it cancelled, and no address is written.
        await repos.transaction(async (tx) => {
          const current = await tx.requests.lockByTokenHash(request.tokenHash);
          if (current && effectiveStatus(current, now) === 'pending' && !current.lockedAt) await deps.record(tx, { kind: 'link_opened', at: clock(), request: current, document, client });
        });
      }
      const sender = await deps.sender(request.tenantId);
      return {
        request,
        document,
        tenant: sender.name,
        brand: { logoPath: sender.logoPath, accentColor: sender.accentColor },
        status,
        otpOutstanding: otpState(request, now) === 'valid',
        text: status === 'pending' && !request.lockedAt && !document.erasedAt ? await documentText(document, client) : null,
      };
    },

    /** The original bytes, exactly as uploaded; records `document_viewed`. */
    async viewDocument(token: string, client: ClientInfo): Promise<{ bytes: Buffer; document: DocumentRow }> {
      const { request, document } = await viewable(token);
      const bytes = await files.read(storageKeys.original(document.id));
      if (!bytes) throw new GoneError('The document is no longer available', 'DOCUMENT_ERASED');
      await recordView(request, document, client, { via: 'pdf' });
      return { bytes, document };
    },

    /**
     * Page `n` as a PNG `width` pixels wide, for the signing page (phones have no inline PDF
     * viewer). Rendered on a worker thread, cached with the document's files (erased with
     * them), and recorded as a view like the PDF (`details.via: pages`).
     */
    async pageImage(token: string, n: number, width: PageImageWidth, client: ClientInfo): Promise<{ png: Buffer; document: DocumentRow }> {
      const { request, document } = await viewable(token);
      if (n > document.pages) throw new NotFoundError(`The document has ${document.pages} page${document.pages === 1 ? '' : 's'}`, 'PAGE_NOT_FOUND');
      const key = storageKeys.pageImage(document.id, n, width);
      let png = await files.read(key);
      if (!png) {
        const original = await files.read(storageKeys.original(document.id));
        if (!original) throw new GoneError('The document is no longer available', 'DOCUMENT_ERASED');
        const pageWidthPt = document.pageSizes?.[n - 1]?.[0] ?? A4_WIDTH_PT;
        const [rendered] = await deps.pool.run(
          'pdf-to-images',
          { pdf: original, dpi: (width * 72) / pageWidthPt, pages: [n], maxPixels: PAGE_IMAGE_MAX_PIXELS, maxTotalPixels: PAGE_IMAGE_MAX_PIXELS },
          { client: ipClient(client) },
        );
        png = Buffer.from(rendered!.png.buffer, rendered!.png.byteOffset, rendered!.png.byteLength);
        await files.write(key, png);
        if (await erasedMeanwhile(document.id)) throw new GoneError('The document is no longer available', 'DOCUMENT_ERASED');
      }
      await recordView(request, document, client, { via: 'pages', page: n });
      return { png, document };
    },

    /** Sends a new code (the previous one stops working): needs the declaration and a prior view; 5 per hour. */
    async sendOtp(token: string, input: { declarationAccepted: boolean }, client: ClientInfo) {
      if (!input.declarationAccepted) {
        throw ValidationError.single('body', 'declaration_accepted', 'The declaration must be accepted before the code is sent', 'declaration_required');
      }
      const { request: current, document } = await load(token);
      const now = clock();
      const sender = await deps.sender(current.tenantId);
      const code = newOtpCode();
      const emailId = await repos.transaction(async (tx) => {
        const request = (await tx.requests.lockByTokenHash(current.tokenHash))!;
        assertActive(request, now);
        if (!(await tx.audit.has(request.id, 'document_viewed'))) {
          throw new ConflictError('Open and read the document before asking for the code', 'DOCUMENT_NOT_VIEWED');
        }
        const allowance = otpSendAllowance(await tx.audit.countSince(request.id, 'otp_sent', new Date(now.getTime() - 3600_000)), now);
        if (!allowance.allowed) {
          throw new RateLimitedError(`At most ${OTP_SENDS_PER_HOUR} codes an hour; try again later`, allowance.retryAfterSeconds, 'OTP_RATE_LIMITED');
        }
        await tx.requests.update(request.id, { otpHash: deps.otp.hash(request.id, code), otpExpiresAt: new Date(now.getTime() + OTP_TTL_SECONDS * 1000) });
        const email = otpEmail({
          locale: request.locale,
          code,
          documentTitle: document.title ?? document.filename,
          minutes: OTP_TTL_SECONDS / 60,
          brand: { name: sender.name, logoUrl: sender.logoUrl, accentColor: sender.accentColor },
        });
        const id = await tx.outbox.insert({ to: request.signeeEmail, ...email, documentId: document.id, requestId: request.id, kind: 'otp' });
        await deps.record(tx, { kind: 'code_sent', at: now, request, document, client });
        return id;
      });
      await deps.jobs.enqueue('email.send', { emailId });
      return { sent: true as const, expires_in: OTP_TTL_SECONDS, email_hint: maskEmail(current.signeeEmail) };
    },

    /**
     * Verifies declaration, image and code, then signs. The request row is locked for the
     * check-and-sign, so of two concurrent confirmations the second finds it signed. Wrong
     * codes are counted (committed) before the error is raised; the fifth locks.
     */
    async confirm(token: string, input: { code?: string; declarationAccepted: boolean; imageB64?: string; typedName?: string }, client: ClientInfo) {
      if (!input.declarationAccepted) throw ValidationError.single('body', 'declaration_accepted', 'The declaration must be accepted to sign', 'declaration_required');
      if (!input.code || !/^\d{6}$/.test(input.code)) throw ValidationError.single('body', 'otp_code', 'The code has 6 digits', 'code_format');
      // The link first: no image work at all for an unknown or closed link. Then the
      // image's structure (cheap, here), then its pixels (on a worker thread).
      const { request: current, document } = await load(token);
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
      let outcome: { kind: 'signed'; request: SigningRequestRow; eventIds: string[] } | { kind: 'wrong'; left: number } | { kind: 'expired' } | undefined;
      try {
        outcome = await repos.transaction(async (tx) => {
          const request = (await tx.requests.lockByTokenHash(current.tokenHash))!;
          assertActive(request, now);
          const code = otpState(request, now);
          if (code === 'none') throw new ConflictError('Ask for a code first', 'OTP_NOT_REQUESTED');
          if (code === 'expired') return { kind: 'expired' as const };
          if (!deps.otp.matches(request.otpHash!, request.id, input.code!)) {
            const { failures, left, locks } = afterWrongCode(request);
            await tx.requests.update(request.id, { otpFailedAttempts: failures, ...(locks ? { lockedAt: now, otpHash: null, otpExpiresAt: null } : {}) });
            await deps.record(tx, { kind: 'code_failed', at: now, request, document, client, attemptsLeft: left, locked: locks });
            return { kind: 'wrong' as const, left };
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
          const eventIds = await deps.record(tx, { kind: 'signed', at: now, request, document, client, signatureImage: signatureKind, signatureLevel: deps.signatureLevel });
          // The locked row as this transaction leaves it: the inline seal needs no second read.
          return { kind: 'signed' as const, request: { ...request, ...signedPatch }, eventIds };
        });
      } finally {
        if (imageKey && outcome?.kind !== 'signed') await files.remove(imageKey);
      }
      if (outcome.kind === 'expired') throw new BadRequestError('The code has expired; ask for a new one', 'OTP_EXPIRED');
      if (outcome.kind === 'wrong') {
        if (outcome.left === 0) throw new LockedError('Five wrong codes: this request is locked', 'REQUEST_LOCKED');
        throw new BadRequestError(`Incorrect code; ${outcome.left} attempt${outcome.left === 1 ? '' : 's'} left`, 'INVALID_OTP');
      }
      await dispatchWebhookEventsNow(deps.webhooks, deps.jobs, outcome.eventIds, deps.logger);
      // The sealed row as recorded; read again only when the seal was not recorded here.
      const signed = (await deps.signatures.sealOrRetryLater(outcome.request, document)) ?? (await repos.requests.find(outcome.request.id))!;
      return { request: signed, record: statusRecord(signed, clock()) };
    },

    /** The signee's own sealed copy, through their link, once sealed. */
    async signedCopy(token: string): Promise<{ bytes: Buffer; request: SigningRequestRow; document: DocumentRow }> {
      const { request, document } = await load(token);
      if (document.erasedAt) throw new GoneError('The document was erased', 'DOCUMENT_ERASED');
      if (request.status !== 'signed') throw new ConflictError('This request is not signed', 'NOT_SIGNED');
      if (request.sealStatus !== 'sealed') throw new ConflictError('The signed copy is still being sealed; try again shortly', 'SEAL_IN_PROGRESS');
      const bytes = await files.read(storageKeys.signed(document.id, request.id));
      if (!bytes) throw new NotFoundError('The signed copy is missing from storage', 'FILE_MISSING');
      return { bytes, request, document };
    },
  };
}

export type SigneeService = ReturnType<typeof createSigneeService>;
