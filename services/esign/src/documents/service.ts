import { createHash, randomUUID } from 'node:crypto';
import { ConflictError, ForbiddenError, GoneError, NotFoundError, ValidationError } from '../errors';
import type { PdfWorkerPool } from '@firma-riesgo/pdf-core';
import type { Logger } from '@firma-riesgo/service-kit';
import type { AuditRepository } from '../audit/repository';
import type { UnitOfWork } from '../db/unit-of-work';
import type { MailFiles } from '../mail/mail-files';
import type { MailRepository } from '../mail/repository';
import { createExpireDue } from '../signing-requests/expire-due';
import type { SigningRequestsRepository } from '../signing-requests/repository';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { WebhookDeliveriesRepository } from '../webhooks/deliveries-repository';
import type { WebhookEventsRepository } from '../webhooks/events-repository';
import { publishWebhookEvents } from '../webhooks/publish';
import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import type { sendEmailJob } from '../mail/jobs';
import type { Sender } from '../branding/service';
import type { EsignPrincipal } from '../keys/authenticate';
import { storageKeys, type FileStore } from '../storage/file-store';
import { inspectPdf, UnacceptablePdfError } from './pdf-inspection';
import type { DocumentRow, DocumentsRepository, DocumentStatus } from './repository';
import { firstSigned, signedPdfAccess } from './rules';
import type { TDocument } from './schemas';

export const MY_DOCUMENTS_PAGE_SIZE = 20;

/**
 * Documents own their rows and files; erasure also cancels and anonymises the document's
 * requests, events and emails in the same transaction, and reads expire its requests.
 */
export type DocumentsRepos = UnitOfWork<
  SigningEventRepos & {
    documents: DocumentsRepository;
    requests: SigningRequestsRepository;
    audit: Pick<AuditRepository, 'anonymiseDocument'>;
    outbox: MailRepository;
    webhookEvents: Pick<WebhookEventsRepository, 'anonymiseDocument'>;
    webhookDeliveries: WebhookDeliveriesRepository;
  }
>;

export interface DocumentOrigin {
  kind: 'document_generated';
  details: Record<string, string | number | boolean | null>;
}

export interface DocumentsDeps {
  repos: DocumentsRepos;
  files: FileStore;
  logger: Logger;
  /** Worker threads: an upload is parsed there, never on the request thread. */
  pool: Pick<PdfWorkerPool, 'run'>;
  /** Webhook events go out through `webhook.dispatch` after commit; the notices of requests an expiry cancelled through `email.send`. */
  jobs: JobEnqueuer<typeof dispatchWebhookEventJob | typeof sendEmailJob>;
  /** The sender as signees see it (branding): the notice of a request an expiry cancelled shows it. */
  sender: (tenantId: string) => Promise<Sender>;
  /** Writes uploads' and erasures' audit rows, webhook events and counts in their transactions. */
  record: RecordSigningEvents;
  /** Embedded mode's .eml files (DATA_DIR/mail): erasure deletes the document's. */
  mailFiles?: Pick<MailFiles, 'removeForDocument'>;
  clock?: () => Date;
}

export function createDocumentsService(deps: DocumentsDeps) {
  const { repos, files } = deps;
  const clock = deps.clock ?? (() => new Date());

  /** The caller's document; another tenant's is as absent as a missing one. */
  async function owned(principal: EsignPrincipal, documentId: string): Promise<DocumentRow> {
    const doc = await repos.documents.find(documentId, clock());
    if (!doc || doc.tenantId !== principal.tenantId) throw new NotFoundError('Document not found', 'DOCUMENT_NOT_FOUND');
    return doc;
  }

  const expiry = createExpireDue({ repos, record: deps.record, sender: deps.sender, jobs: deps.jobs });
  const expireDue = (documentId: string) => expiry.expireDue(documentId, clock());

  /**
   * Erasure: cancels pending requests, anonymises requests and events, deletes the
   * document's emails, then its files. Repeating it is harmless (and retries the files).
   */
  async function eraseDocument(doc: DocumentRow, actor: string) {
    const documentId = doc.id;
    const now = clock();
    const counts = await repos.transaction(async (tx) => {
      const locked = await tx.documents.lock(documentId, now);
      if (!locked || locked.erasedAt) return { requests: 0, events: 0, eventIds: [] as string[], emailIds: [] as string[] };
      const cancelled = await tx.requests.cancelPending(documentId, now);
      const requests = await tx.requests.anonymiseDocument(documentId);
      const events = await tx.audit.anonymiseDocument(documentId);
      const emailIds = await tx.outbox.deleteForDocument(documentId);
      // Webhook payloads and what receivers answered about this document lose the signee too;
      // deliveries still pending are sent with the anonymised payload.
      await tx.webhookEvents.anonymiseDocument(documentId);
      await tx.webhookDeliveries.scrubDocument(documentId);
      await tx.documents.markErased(documentId, now);
      // The tenant's own call: its address is not the signees' data, but nothing about
      // the erased document may point at a person, so none is kept.
      const eventIds = await deps.record(
        tx,
        ...cancelled.map((request) => ({ kind: 'request_cancelled' as const, at: now, request, document: doc, reason: 'document_erased' as const })),
        { kind: 'document_erased', at: now, document: doc, requestsAnonymised: requests, eventsAnonymised: events },
      );
      return { requests, events, eventIds, emailIds };
    });
    await publishWebhookEvents(deps.jobs, counts.eventIds);
    await files.removeTree(storageKeys.documentDir(documentId));
    // Repeated on every call, like the files: a retry after a crash still finds them.
    const emlFiles = (await deps.mailFiles?.removeForDocument(documentId, counts.emailIds)) ?? 0;
    deps.logger.info({ documentId, actor, requests: counts.requests, events: counts.events, emlFiles }, 'document erased');
    return { document_id: documentId, erased: true as const, requests_anonymised: counts.requests, events_anonymised: counts.events };
  }

  return {
    owned,

    /**
     * Stores the upload byte for byte, then records it. Were the insert to fail, the file is
     * removed again, so storage never holds a document the database does not know.
     */
    async upload(
      principal: EsignPrincipal,
      file: { buffer: Buffer; originalname: string } | undefined,
      title?: string,
      /** Where a generated document came from, recorded as its first audit event (never personal data). */
      origin?: DocumentOrigin,
    ): Promise<DocumentRow> {
      if (!file) throw ValidationError.single('form', 'file', 'Field required', 'missing');
      let pages: number;
      let pageSizes: [number, number][];
      try {
        ({ pages, pageSizes } = await inspectPdf(deps.pool, file.buffer, `key:${principal.keyId}`));
      } catch (err) {
        if (err instanceof UnacceptablePdfError) throw ValidationError.single('form', 'file', err.message, `pdf_${err.reason}`);
        throw err;
      }
      const id = randomUUID();
      const sha256 = createHash('sha256').update(file.buffer).digest('hex');
      await files.write(storageKeys.original(id), file.buffer);
      try {
        const createdAt = clock();
        return await repos.transaction(async (tx) => {
          const row = await tx.documents.insert({
            id,
            tenantId: principal.tenantId,
            filename: safeFilename(file.originalname),
            title: title ?? null,
            pages,
            pageSizes,
            sizeBytes: file.buffer.length,
            sha256,
            createdAt,
          });
          await deps.record(tx, { kind: 'document_uploaded', at: createdAt, document: row, generated: origin?.details });
          return row;
        });
      } catch (err) {
        await files.removeTree(storageKeys.documentDir(id)).catch(() => undefined);
        throw err;
      }
    },

    /** Ownership is checked before the expiry sweep: another tenant's call writes nothing (no audit row, no webhook event). */
    async get(principal: EsignPrincipal, documentId: string): Promise<DocumentRow> {
      await owned(principal, documentId);
      await expireDue(documentId);
      return owned(principal, documentId);
    },

    async page(principal: EsignPrincipal, options: { status?: DocumentStatus; page: number }) {
      return repos.documents.page(principal.tenantId, { ...options, pageSize: MY_DOCUMENTS_PAGE_SIZE, now: clock() });
    },

    /**
     * The sealed copy of the document's first signed request (interface §4.1). 404 when the
     * document or a signed request is missing, 403 when another tenant's and the caller is
     * not a superadmin (§7), 409 while sealing. An erased document's signed PDF is missing
     * too: 404 as §7 says, with the code DOCUMENT_ERASED and the erasure time in the message.
     */
    async signedPdf(principal: EsignPrincipal, documentId: string): Promise<{ doc: DocumentRow; bytes: Buffer }> {
      const doc = await repos.documents.find(documentId, clock());
      if (!doc) throw new NotFoundError('Document not found', 'DOCUMENT_NOT_FOUND');
      if (signedPdfAccess(principal, doc) === 'forbidden') throw new ForbiddenError('This document belongs to another tenant', 'NOT_DOCUMENT_OWNER');
      if (doc.erasedAt) throw new NotFoundError(`The document was erased at ${doc.erasedAt.toISOString()}; its signed PDF no longer exists`, 'DOCUMENT_ERASED');
      const signed = firstSigned(await repos.requests.listForDocument(doc.id));
      if (!signed) throw new NotFoundError('No request of this document is signed yet', 'NO_SIGNED_REQUEST');
      if (signed.sealStatus !== 'sealed') throw new ConflictError('The signature is still being sealed; try again shortly', 'SEAL_IN_PROGRESS');
      const bytes = await files.read(storageKeys.signed(doc.id, signed.id));
      if (!bytes) throw new NotFoundError('The signed PDF is missing from storage', 'FILE_MISSING');
      return { doc, bytes };
    },

    /** The final combined PDF: 409 until every request is signed and the worker has built it. */
    async finalPdf(principal: EsignPrincipal, documentId: string): Promise<{ doc: DocumentRow; bytes: Buffer }> {
      const doc = await owned(principal, documentId);
      if (doc.erasedAt) throw new GoneError('The document was erased', 'DOCUMENT_ERASED');
      if (!doc.finalSha256) {
        const reason = doc.status === 'signed' ? 'is being built; try again shortly' : 'exists once every request is signed';
        throw new ConflictError(`The final PDF ${reason}`, 'FINAL_PDF_NOT_READY');
      }
      const bytes = await files.read(storageKeys.final(documentId));
      if (!bytes) throw new NotFoundError('The final PDF is missing from storage', 'FILE_MISSING');
      return { doc, bytes };
    },

    /**
     * Erasure: cancels pending requests, anonymises requests and events, deletes the
     * document's emails, then its files. Repeating it is harmless (and retries the files).
     */
    async erase(principal: EsignPrincipal, documentId: string) {
      return eraseDocument(await owned(principal, documentId), `tenant:${principal.tenant}`);
    },

    /**
     * Tenant erasure (administration): erases every document of the tenant not erased yet,
     * one by one, each as `DELETE /firma/documentos/{id}` does. Running it again after a
     * crash finishes the job. Answers how many it erased now.
     */
    async eraseAllOfTenant(tenantId: string, actor: string): Promise<number> {
      let erased = 0;
      for (const id of await repos.documents.liveIdsOfTenant(tenantId)) {
        const doc = await repos.documents.find(id, clock());
        if (!doc || doc.erasedAt) continue;
        await eraseDocument(doc, actor);
        erased++;
      }
      return erased;
    },
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;

export function documentRecord(doc: DocumentRow, tenant: string): TDocument {
  return {
    document_id: doc.id,
    tenant,
    filename: doc.filename,
    title: doc.title,
    pages: doc.pages,
    size_bytes: doc.sizeBytes,
    sha256: doc.sha256,
    status: doc.status,
    created_at: doc.createdAt.toISOString(),
    final_sha256: doc.finalSha256,
    finalised_at: doc.finalisedAt?.toISOString() ?? null,
    final_signature: doc.finalLevel ? { level: doc.finalLevel, tsa_time: doc.finalTsaTime?.toISOString() ?? null } : null,
    erased_at: doc.erasedAt?.toISOString() ?? null,
  };
}

/** Keeps the name a user would recognise, without path parts or control characters. */
function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return clean || 'document.pdf';
}
