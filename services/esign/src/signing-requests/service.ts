import { ConflictError, GoneError, NotFoundError, ValidationError } from '../errors';
import type { PdfWorkerPool } from '@firma-riesgo/pdf-core';
import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import { storageKeys, type FileStore } from '../storage/file-store';
import { anchorsOf, ANCHOR_MAX_HITS, ANCHOR_MAX_PAGES, assertNoOverlap, placeFields } from './field-placement';
import type { PlacedField } from './field-schemas';
import type { z } from 'zod';
import type { ClientInfo } from '../audit/client';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentsRepository } from '../documents/repository';
import type { sendEmailJob } from '../mail/jobs';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import type { Sender } from '../branding/service';
import type { EsignPrincipal } from '../keys/authenticate';
import type { MailRepository } from '../mail/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import { publishWebhookEvents } from '../webhooks/publish';
import { signingLinkEmail } from './emails';
import { createSigningTurns } from './release-next-order';
import { createVoidRequest } from './void-request';
import { createSendReminders } from './send-reminders';
import { createReassignRequest, type ReassignInput } from './reassign-request';
import { reassignedRecord } from './records';
import type { finaliseDocumentJob } from '../signatures/jobs';
import { createExpireDue } from './expire-due';
import { newLinkToken } from './link-token';
import { statusRecord } from './records';
import { COPY_ROLE, firstReminderAt, initialStatus, undercutsStartedOrder, WAITING } from './rules';
import { randomUUID } from 'node:crypto';
import type { LinkSealer } from './sealed-link';
import type { SigningRequestRow, SigningRequestsRepository } from './repository';
import type { TSigningRequestStatus, ZCreateSigningRequestSchema } from './schemas';

/**
 * Creating a request locks its document row (so a finalisation cannot slip in), and
 * writes the request, its link email and its audit event in one transaction.
 */
export type SigningRequestsRepos = UnitOfWork<
  SigningEventRepos & {
    requests: SigningRequestsRepository;
    documents: DocumentsRepository;
    outbox: MailRepository;
  }
>;

export interface SigningRequestsDeps {
  repos: SigningRequestsRepos;
  jobs: JobEnqueuer<typeof sendEmailJob | typeof dispatchWebhookEventJob | typeof finaliseDocumentJob>;
  publicUrl: string;
  /** The sender as signees see it (branding): the link email shows its name, logo and accent. */
  sender: (tenantId: string) => Promise<Sender>;
  /** Writes the `request_created` audit row, webhook event and count in the creating transaction. */
  record: RecordSigningEvents;
  /** Seals the link token at rest, for reminders (sealed-link.ts). */
  links: LinkSealer;
  /** The tenant's reminder defaults (tenant settings), for a request that does not set its own. */
  reminderDefaults: (tenantId: string) => Promise<{ reminderEveryHours: number; reminderMax: number }>;
  /** The document's original and the worker threads that find anchors in it (`fields`). */
  files: Pick<FileStore, 'read'>;
  pool: Pick<PdfWorkerPool, 'run'>;
  clock?: () => Date;
}

export function createSigningRequestsService(deps: SigningRequestsDeps) {
  const { repos } = deps;
  const clock = deps.clock ?? (() => new Date());

  async function ownedRequest(principal: EsignPrincipal, requestId: string): Promise<SigningRequestRow> {
    const row = await repos.requests.find(requestId);
    if (!row || row.tenantId !== principal.tenantId) throw new NotFoundError('Signing request not found', 'REQUEST_NOT_FOUND');
    return row;
  }

  const reassignRequest = createReassignRequest({ repos, jobs: deps.jobs, publicUrl: deps.publicUrl, sender: deps.sender, record: deps.record, links: deps.links, clock });
  const reminders = createSendReminders({ repos, jobs: deps.jobs, publicUrl: deps.publicUrl, sender: deps.sender, links: deps.links, record: deps.record, clock });
  /**
   * The request's fields resolved against its document (field-placement.ts): page numbers
   * checked against the page count, anchors found on the worker pool in the text budget
   * of the signing page. Null without fields. Ownership was checked by the caller.
   */
  async function placeRequestFields(principal: EsignPrincipal, body: z.output<typeof ZCreateSigningRequestSchema>, doc: { id: string; pages: number }): Promise<PlacedField[] | null> {
    // An empty array is no fields: the block on the last page, as without it.
    if (!body.fields || body.fields.length === 0) return null;
    if (body.role !== 'signer') {
      throw new ValidationError([{ loc: ['body', 'fields'], msg: 'only a signer has fields (an approver and a cc are not stamped)', type: 'value_error' }]);
    }
    const needles = anchorsOf(body.fields);
    let found = null;
    if (needles.length > 0) {
      const original = await deps.files.read(storageKeys.original(doc.id));
      if (!original) throw new GoneError('The document was erased', 'DOCUMENT_ERASED');
      // Queued fairly under the caller's key, as the upload's inspection is.
      found = await deps.pool.run('find-text', { pdf: original, needles, maxPages: ANCHOR_MAX_PAGES, maxHits: ANCHOR_MAX_HITS }, { timeoutMs: 20_000, client: `key:${principal.keyId}` });
    }
    return placeFields(body.fields, doc.pages, found);
  }

  const expiry = createExpireDue({ repos, record: deps.record, sender: deps.sender, jobs: deps.jobs });
  const turns = createSigningTurns({ record: deps.record, sender: deps.sender, links: deps.links, publicUrl: deps.publicUrl });
  const voidRequest = createVoidRequest({ repos, jobs: deps.jobs, sender: deps.sender, record: deps.record, turns, clock });

  return {
    /** Voids an open request (void-request.ts). */
    void: voidRequest,

    /** The reminder sweep's work (send-reminders.ts). */
    remindDue: reminders.remindDue,
    /** The sweep's other part: waiting requests an expiry blocked for good are cancelled (expire-due.ts). */
    settleBlocked: expiry.settleBlocked,

    /** One reminder now (at most one an hour after the last); answers the status record. */
    async remind(principal: EsignPrincipal, requestId: string): Promise<TSigningRequestStatus> {
      const row = await reminders.remindNow(principal, requestId);
      return statusRecord(row, clock(), await repos.requests.listForDocument(row.documentId));
    },

    /** The tenant hands a request to someone else (reassign-request.ts); answers the new link once. */
    async reassign(principal: EsignPrincipal, requestId: string, input: ReassignInput, client: ClientInfo) {
      const found = await ownedRequest(principal, requestId);
      const { request, signingUrl } = await reassignRequest(found, input, client, 'tenant');
      return reassignedRecord(request, signingUrl);
    },

    /**
     * Creates the request, its audit event and the link email in one transaction (the
     * document row locked, so a finalisation cannot slip in between), then enqueues the
     * email by id.
     */
    async create(principal: EsignPrincipal, body: z.output<typeof ZCreateSigningRequestSchema>, client: ClientInfo) {
      const now = clock();
      const sender = await deps.sender(principal.tenantId);
      const defaults = await deps.reminderDefaults(principal.tenantId);
      const reminders = { reminderEveryHours: body.reminder_every_hours ?? defaults.reminderEveryHours, reminderMax: body.reminder_max ?? defaults.reminderMax };
      const link = newLinkToken();
      const expiresAt = new Date(now.getTime() + body.expires_in_hours * 3600_000);
      const signingUrl = `${deps.publicUrl}/firma/firmar/${link.token}`;
      // Placed before the transaction (anchors cost a worker job), against the document as read now; the lock below checks it again.
      let fields: PlacedField[] | null = null;
      if (body.fields) {
        const seen = await repos.documents.find(body.document_id, now);
        if (!seen || seen.tenantId !== principal.tenantId) throw new NotFoundError('Document not found', 'DOCUMENT_NOT_FOUND');
        if (seen.erasedAt) throw new GoneError('The document was erased', 'DOCUMENT_ERASED');
        fields = await placeRequestFields(principal, body, seen);
      }
      const { request, emailId, eventIds } = await repos.transaction(async (tx) => {
        const doc = await tx.documents.lock(body.document_id, now);
        if (!doc || doc.tenantId !== principal.tenantId) throw new NotFoundError('Document not found', 'DOCUMENT_NOT_FOUND');
        if (doc.erasedAt) throw new GoneError('The document was erased', 'DOCUMENT_ERASED');
        if (doc.finalisedAt || doc.finaliseClaimedAt) {
          throw new ConflictError('Every request of this document is signed and its final PDF is built; upload it again for new signatures', 'DOCUMENT_FINALISED');
        }
        // The document's row lock orders this against the confirmations that release turns (release-next-order.ts).
        const siblings = await tx.requests.listForDocument(doc.id);
        const undercut = undercutsStartedOrder({ role: body.role, signingOrder: body.order }, siblings);
        if (undercut !== null) {
          throw new ConflictError(`Order ${undercut} of this document has already started; a new request needs order ${undercut} or higher`, 'ORDER_ALREADY_STARTED');
        }
        // Two recipients' fields must not overlap; a cancelled or declined request's fields are never drawn.
        if (fields) assertNoOverlap(fields, siblings.filter((s) => s.fields && !['cancelled', 'declined'].includes(s.status)).map((s) => s.fields!));
        const status = initialStatus({ role: body.role, signingOrder: body.order }, siblings);
        const id = randomUUID();
        const request = await tx.requests.insert({
          id,
          status,
          sealedToken: body.role === COPY_ROLE ? null : deps.links.seal(id, link.token),
          ...reminders,
          nextReminderAt: status === 'pending' ? firstReminderAt(reminders, now) : null,
          signingOrder: body.order,
          role: body.role,
          allowReassign: body.allow_reassign,
          documentId: doc.id,
          tenantId: principal.tenantId,
          signeeEmail: body.signee_email,
          signeeName: body.signee_name ?? null,
          message: body.message ?? null,
          redirectUrl: body.redirect_url ?? null,
          locale: body.locale,
          tokenHash: link.hash,
          expiresAt,
          createdAt: now,
          fields,
        });
        const email = signingLinkEmail({
          locale: body.locale,
          signeeName: request.signeeName,
          tenant: sender.name,
          documentTitle: doc.title ?? doc.filename,
          message: request.message,
          url: signingUrl,
          expiresAt,
          brand: { name: sender.name, logoUrl: sender.logoUrl, accentColor: sender.accentColor },
        });
        // A cc has no link; a request whose turn has not come gets its email when the turn comes (release-next-order.ts).
        const emailId =
          body.role === COPY_ROLE || status === WAITING
            ? null
            : await tx.outbox.insert({ to: body.signee_email, ...email, documentId: doc.id, requestId: request.id, kind: 'signing_link' });
        const eventIds = await deps.record(tx, { kind: 'request_created', at: now, request, document: doc, client });
        return { request, emailId, eventIds };
      });
      if (emailId) await deps.jobs.enqueue('email.send', { emailId });
      await publishWebhookEvents(deps.jobs, eventIds);
      return {
        request_id: request.id,
        document_id: request.documentId,
        status: request.status as 'pending' | 'waiting',
        signing_url: request.role === COPY_ROLE ? null : signingUrl,
        order: request.signingOrder,
        role: request.role,
        expires_at: request.expiresAt.toISOString(),
        created_at: request.createdAt.toISOString(),
        ...(request.fields ? { fields: request.fields } : {}),
      };
    },

    async status(principal: EsignPrincipal, requestId: string): Promise<TSigningRequestStatus> {
      const row = await ownedRequest(principal, requestId);
      const now = clock();
      await expiry.expireDue(row.documentId, now);
      return statusRecord((await repos.requests.find(requestId))!, now, await repos.requests.listForDocument(row.documentId));
    },

    async listForDocument(principal: EsignPrincipal, documentId: string) {
      const now = clock();
      // Ownership first: the sweep writes audit rows and webhook events, which another tenant's call must not cause.
      const doc = await repos.documents.find(documentId, now);
      if (!doc || doc.tenantId !== principal.tenantId) throw new NotFoundError('Document not found', 'DOCUMENT_NOT_FOUND');
      await expiry.expireDue(documentId, now);
      const rows = await repos.requests.listForDocument(documentId);
      return rows.map((row) => statusRecord(row, now, rows));
    },
  };
}

export type SigningRequestsService = ReturnType<typeof createSigningRequestsService>;
