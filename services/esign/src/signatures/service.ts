import { randomUUID } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { sealPdf, type SigningIdentity, type TsaClient } from '@firma-riesgo/pdf-core';
import type { JobContext, JobEnqueuer, Logger } from '@firma-riesgo/service-kit';
import type { AuditRepository } from '../audit/repository';
import type { UnitOfWork } from '../db/unit-of-work';
import { FINALISE_CLAIM_STALE_MS, FINALISE_HEARTBEAT_MS, ownerKey, type ClaimOwner } from '../documents/finalise-claim';
import type { DocumentRow, DocumentsRepository } from '../documents/repository';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import { maskEmail } from '../signing-requests/mask-email';
import type { SigningRequestRow, SigningRequestsRepository } from '../signing-requests/repository';
import { storageKeys, type FileStore } from '../storage/file-store';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import { publishWebhookEvents } from '../webhooks/publish';
import { appendAuditCertificate } from './audit-certificate';
import { sealRequestJob, type SignatureJobs } from './jobs';
import { drawStamps, type StampData } from './stamp';

/** Sealing reads requests and documents, records seals and the final PDF, and writes their events. */
export type SignaturesRepos = UnitOfWork<
  SigningEventRepos & {
    requests: SigningRequestsRepository;
    documents: DocumentsRepository;
    audit: Pick<AuditRepository, 'listForDocument'>;
  }
>;

export interface SignaturesDeps {
  repos: SignaturesRepos;
  files: FileStore;
  identity: SigningIdentity;
  /** Set when TSA_URL is: every seal is then B-T or fails. */
  tsa?: TsaClient;
  jobs: JobEnqueuer<SignatureJobs | typeof dispatchWebhookEventJob>;
  publicUrl: string;
  /** The tenant's display name, from the keys feature (the audit certificate prints it). */
  tenantName: (tenantId: string) => Promise<string>;
  logger: Logger;
  /** Writes the `sealed` and `document_completed` events in the transactions that record them. */
  record: RecordSigningEvents;
  clock?: () => Date;
}

export function createSignaturesService(deps: SignaturesDeps) {
  const { repos, files } = deps;
  const clock = deps.clock ?? (() => new Date());

  async function stampOf(request: SigningRequestRow, slot: number): Promise<StampData> {
    const image = request.signatureImageKey ? await files.read(request.signatureImageKey) : null;
    return {
      slot,
      locale: request.locale,
      name: request.signeeName,
      maskedEmail: maskEmail(request.signeeEmail),
      signedAt: request.signedAt!,
      requestId: request.id,
      image,
    };
  }

  async function original(doc: DocumentRow): Promise<Buffer> {
    const bytes = await files.read(storageKeys.original(doc.id));
    if (!bytes) throw new Error(`Original of document ${doc.id} is missing from storage`);
    return bytes;
  }

  async function enqueueFinaliseIfComplete(documentId: string): Promise<void> {
    if (await repos.requests.allSealed(documentId)) await deps.jobs.enqueue('document.finalise', { documentId });
  }

  /** An erased document's files must not outlive the erasure: a seal or build that lost that race removes them. */
  async function removeIfErased(documentId: string): Promise<void> {
    const current = await repos.documents.find(documentId, clock());
    if (current?.erasedAt) await files.removeTree(storageKeys.documentDir(documentId));
  }

  /** What the audit certificate prints: the final PDF's last pages, and the operator's sealed trail. */
  function certificateData(
    doc: DocumentRow,
    requests: SigningRequestRow[],
    events: Awaited<ReturnType<SignaturesRepos['audit']['listForDocument']>>,
    tenant: string,
    now: Date,
  ): Parameters<typeof appendAuditCertificate>[1] {
    return {
      documentId: doc.id,
      title: doc.title ?? doc.filename,
      filename: doc.filename,
      pages: doc.pages,
      sha256: doc.sha256,
      createdAt: doc.createdAt,
      tenant,
      signatures: requests
        .filter((r) => r.signedAt)
        .map((r) => ({
          requestId: r.id,
          name: r.signeeName,
          email: r.signeeEmail,
          signedAt: r.signedAt!,
          level: r.signatureLevel ?? '-',
          tsaTime: r.tsaTime,
          signedSha256: r.signedSha256 ?? '-',
        })),
      events: events.map((e) => ({ at: e.occurredAt, kind: e.kind, email: e.email, ip: e.ip, userAgent: e.userAgent, documentSha256: e.documentSha256, details: e.details })),
      verificationUrl: `${deps.publicUrl}/verificar/${doc.id}`,
      seal: { commonName: deps.identity.commonName, selfSigned: deps.identity.selfSigned, level: deps.tsa ? 'B-T' : 'B-B' },
      generatedAt: now,
    };
  }

  /**
   * Stamps the signee's block on the original's last page and seals it (the signing time is
   * the confirmation's), then records the seal under the document's lock: the sealed row,
   * or null when it was not recorded (erased meanwhile, or sealed by another run).
   */
  async function seal(request: SigningRequestRow, doc: DocumentRow): Promise<SigningRequestRow | null> {
    const stamp = await stampOf(request, await repos.requests.positionInDocument(doc.id, request.id));
    const sealed = await sealPdf(await original(doc), {
      identity: deps.identity,
      tsa: deps.tsa,
      signingTime: request.signedAt!,
      reason: `Firma electrónica de la solicitud ${request.id}`,
      location: deps.publicUrl,
      fieldName: `firma-${request.id}`,
      modify: (pdf) => drawStamps(pdf, [stamp]),
    });
    const key = storageKeys.signed(doc.id, request.id);
    await files.write(key, sealed.pdf);
    const recorded = await repos.transaction(async (tx) => {
      // Erasure takes the same row lock: a seal is recorded before it or not at all.
      const locked = await tx.documents.lock(doc.id, clock());
      if (!locked || locked.erasedAt) return null;
      const row = await tx.requests.markSealed(request.id, { level: sealed.level, tsaTime: sealed.tsaTime, sha256: sealed.sha256, at: clock() });
      if (row) await deps.record(tx, { kind: 'sealed', request, document: doc, seal: sealed });
      return row;
    });
    if (!recorded) {
      await removeIfErased(doc.id);
      return null;
    }
    await enqueueFinaliseIfComplete(doc.id);
    return recorded;
  }

  const service = {
    /**
     * Seals a signed request (see `seal`). Idempotent: a sealed or erased request is skipped.
     */
    async sealRequest(requestId: string): Promise<'sealed' | 'skipped'> {
      const request = await repos.requests.find(requestId);
      if (!request || request.status !== 'signed' || request.sealStatus === 'sealed' || !request.signedAt) return 'skipped';
      const doc = await repos.documents.find(request.documentId, clock());
      if (!doc || doc.erasedAt) return 'skipped';
      return (await seal(request, doc)) ? 'sealed' : 'skipped';
    },

    /**
     * The confirmation seals inline, with the rows it has just committed (signed, `sealing`)
     * instead of reading them again; the record under the document's lock still checks
     * erasure and an earlier seal. Answers the sealed row, or null when the seal was not
     * recorded: if it failed (TSA down), the job takes over and retries.
     */
    async sealOrRetryLater(request: SigningRequestRow, doc: DocumentRow): Promise<SigningRequestRow | null> {
      try {
        return await seal(request, doc);
      } catch (err) {
        deps.logger.warn({ requestId: request.id, err: (err as Error).message }, 'seal failed; the signature.seal job retries it');
        await repos.requests.recordSealFailure(request.id, (err as Error).message, false);
        await deps.jobs.enqueue('signature.seal', { requestId: request.id });
        return null;
      }
    },

    /** The `signature.seal` handler: records each failure; the last one marks the seal failed. */
    async sealJob(requestId: string, ctx: Pick<JobContext, 'attempt'>): Promise<'sealed' | 'skipped'> {
      try {
        return await service.sealRequest(requestId);
      } catch (err) {
        await repos.requests.recordSealFailure(requestId, (err as Error).message, ctx.attempt >= sealRequestJob.attempts);
        throw err;
      }
    },

    /**
     * Builds the combined final PDF once: the original with every signee's stamp and the
     * audit certificate, sealed by the service. A claim on the document row, owned by the
     * job run and renewed while it builds, makes a concurrent job a no-op; the same job
     * retried or redelivered after a crash takes its claim back (documents/finalise-claim.ts).
     */
    async finaliseDocument(
      documentId: string,
      ctx: Pick<JobContext, 'jobId' | 'attempt'> & { signal?: AbortSignal } = { jobId: `direct-${randomUUID()}`, attempt: 1 },
    ): Promise<'finalised' | 'skipped' | 'not_ready'> {
      if (!(await repos.requests.allSealed(documentId))) return 'not_ready';
      const owner: ClaimOwner = { jobId: ctx.jobId, attempt: ctx.attempt };
      if (!(await repos.documents.claimFinalisation(documentId, owner, clock()))) return 'skipped';
      let lost = false;
      const heartbeat = setInterval(() => {
        repos.documents.renewFinalisationClaim(documentId, owner, clock()).then(
          (held) => (lost ||= !held),
          (err: unknown) => deps.logger.warn({ documentId, err: (err as Error).message }, 'could not renew the finalisation claim'),
        );
      }, FINALISE_HEARTBEAT_MS);
      heartbeat.unref();
      try {
        const doc = (await repos.documents.find(documentId, clock()))!;
        const requests = await repos.requests.listForDocument(documentId);
        const stamps = await Promise.all(requests.map((r, slot) => stampOf(r, slot)));
        const events = await repos.audit.listForDocument(documentId);
        const now = clock();
        const tenant = await deps.tenantName(doc.tenantId);
        const sealed = await sealPdf(await original(doc), {
          identity: deps.identity,
          tsa: deps.tsa,
          signingTime: now,
          reason: `Sello final del documento ${doc.id}`,
          location: deps.publicUrl,
          fieldName: 'sello-final',
          modify: async (pdf) => {
            await drawStamps(pdf, stamps);
            await appendAuditCertificate(pdf, certificateData(doc, requests, events, tenant, now));
          },
        });
        const recorded = await repos.transaction(async (tx) => {
          // Under the row lock, and only while the claim is still this run's: a run that lost
          // it (timed out, taken over) never overwrites the final PDF another run recorded.
          const row = await tx.documents.lock(doc.id, now);
          if (lost || ctx.signal?.aborted || !row || row.finalisedAt || row.erasedAt || row.finaliseClaimedBy !== ownerKey(owner)) return false;
          await files.write(storageKeys.final(doc.id), sealed.pdf);
          const won = await tx.documents.markFinalised(doc.id, { sha256: sealed.sha256, level: sealed.level, tsaTime: sealed.tsaTime, at: now });
          if (won) return deps.record(tx, { kind: 'document_completed', at: now, document: doc, final: sealed });
          return false;
        });
        if (recorded === false) {
          await removeIfErased(doc.id);
          return 'skipped';
        }
        await publishWebhookEvents(deps.jobs, recorded);
        deps.logger.info({ documentId, level: sealed.level }, 'final PDF built');
        return 'finalised';
      } catch (err) {
        await repos.documents.releaseFinalisationClaim(documentId, owner);
        throw err;
      } finally {
        clearInterval(heartbeat);
      }
    },

    /**
     * The document's audit trail as its own PDF (administration, `?format=pdf`): the audit
     * certificate pages as of now, sealed with the service certificate (and timestamped
     * with TSA_URL). Null for an unknown document.
     */
    async auditTrailPdf(documentId: string): Promise<Buffer | null> {
      const now = clock();
      const doc = await repos.documents.find(documentId, now);
      if (!doc) return null;
      const [requests, events, tenant] = await Promise.all([repos.requests.listForDocument(doc.id), repos.audit.listForDocument(doc.id), deps.tenantName(doc.tenantId)]);
      const trail = await PDFDocument.create();
      trail.setTitle(`Audit trail ${doc.id}`);
      await appendAuditCertificate(trail, certificateData(doc, requests, events, tenant, now));
      const sealed = await sealPdf(Buffer.from(await trail.save({ useObjectStreams: false })), {
        identity: deps.identity,
        tsa: deps.tsa,
        signingTime: now,
        reason: `Registro de auditoría del documento ${doc.id}`,
        location: deps.publicUrl,
        fieldName: 'sello-auditoria',
      });
      return sealed.pdf;
    },

    /**
     * The recovery sweep (at start of a job-running process, then periodically): requests
     * signed but never sealed (a crash between commit and seal) get their seal job, and fully
     * sealed documents without a final PDF and without a live claim get theirs. One stranded
     * longer than a claim takes to go stale gets a job under a fresh id: its own job may be
     * lingering in the queue (active in a dead worker, or failed after stalling twice), where
     * the usual id would make the new one a no-op. A duplicate is harmless: its claim skips it.
     */
    async resumeInterrupted(): Promise<{ seals: number; finalisations: number }> {
      const requestIds = await repos.requests.pendingSealIds();
      for (const requestId of requestIds) await deps.jobs.enqueue('signature.seal', { requestId });
      const now = clock().getTime();
      const candidates = await repos.documents.unclaimedUnfinalisedIds(new Date(now - FINALISE_CLAIM_STALE_MS));
      const documentIds = await repos.requests.fullySealedAmong(candidates);
      for (const documentId of documentIds) {
        const claimedAt = (await repos.documents.find(documentId, new Date(now)))?.finaliseClaimedAt?.getTime();
        const sealedAt = Math.max(0, ...(await repos.requests.listForDocument(documentId)).map((r) => r.sealedAt?.getTime() ?? 0));
        const stranded = now - (claimedAt ?? sealedAt) >= FINALISE_CLAIM_STALE_MS;
        const jobId = stranded ? `finalise-${documentId}-r${Math.floor(now / FINALISE_CLAIM_STALE_MS)}` : undefined;
        await deps.jobs.enqueue('document.finalise', { documentId }, jobId ? { jobId } : undefined);
      }
      return { seals: requestIds.length, finalisations: documentIds.length };
    },
  };
  return service;
}

export type SignaturesService = ReturnType<typeof createSignaturesService>;
