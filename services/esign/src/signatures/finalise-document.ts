import { randomUUID } from 'node:crypto';
import { sealPdf } from '@firma-riesgo/pdf-core';
import type { JobContext, JobEnqueuer, Logger } from '@firma-riesgo/service-kit';
import type { AuditRepository } from '../audit/repository';
import type { UnitOfWork } from '../db/unit-of-work';
import { FINALISE_HEARTBEAT_MS, ownerKey, type ClaimOwner } from '../documents/finalise-claim';
import type { DocumentsRepository } from '../documents/repository';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { SigningRequestsRepository } from '../signing-requests/repository';
import { storageKeys, type FileStore } from '../storage/file-store';
import { publishWebhookEvents } from '../webhooks/publish';
import { appendAuditCertificate } from './audit-certificate';
import { certificateData } from './certificate-data';
import { createRemoveIfErased, originalOf, stampOf, type SealMaterial } from './seal-files';
import { drawStamps } from './stamp';
import type { Sender } from '../branding/service';
import type { sendEmailJob } from '../mail/jobs';
import type { CompletionCopyRepos, SendCompletionCopies } from './send-completion-copies';
import { stampOrder } from '../signing-requests/rules';

/** The final PDF reads every request and the trail, claims the document, and records it with `document_completed`. */
export type FinaliseDocumentRepos = UnitOfWork<
  SigningEventRepos &
  CompletionCopyRepos & {
    requests: Pick<SigningRequestsRepository, 'allSealed' | 'listForDocument' | 'update'>;
    documents: Pick<DocumentsRepository, 'find' | 'lock' | 'claimFinalisation' | 'renewFinalisationClaim' | 'releaseFinalisationClaim' | 'markFinalised'>;
    audit: Pick<AuditRepository, 'listForDocument'>;
  }
>;

/**
 * Builds the combined final PDF once: the original with every signee's stamp and the
 * audit certificate, sealed by the service. A claim on the document row, owned by the
 * job run and renewed while it builds, makes a concurrent job a no-op; the same job
 * retried or redelivered after a crash takes its claim back (documents/finalise-claim.ts).
 */
export function createFinaliseDocument(deps: SealMaterial & {
  repos: FinaliseDocumentRepos;
  files: FileStore;
  jobs: JobEnqueuer<typeof dispatchWebhookEventJob | typeof sendEmailJob>;
  /** The completion copies queued with the final PDF (signatures/send-completion-copies.ts). */
  completionCopies: SendCompletionCopies;
  /** The sender as recipients see it (branding): the completion email shows it. */
  sender: (tenantId: string) => Promise<Sender>;
  notifyEmail: (tenantId: string) => Promise<string | null>;
  /** The tenant's display name (the audit certificate prints it). */
  tenantName: (tenantId: string) => Promise<string>;
  record: RecordSigningEvents;
  logger: Logger;
  clock: () => Date;
}) {
  const { repos, files, clock } = deps;
  const removeIfErased = createRemoveIfErased({ documents: repos.documents, files, clock });
  return async function finaliseDocument(
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
      // Signers only, in signing order: an approval is a line of the certificate, a cc has no part.
      const stamps = await Promise.all(stampOrder(requests).map((r, slot) => stampOf(files, r, slot)));
      const events = await repos.audit.listForDocument(documentId);
      const now = clock();
      const tenant = await deps.tenantName(doc.tenantId);
      const sender = await deps.sender(doc.tenantId);
      const notify = await deps.notifyEmail(doc.tenantId);
      const sealed = await sealPdf(await originalOf(files, doc), {
        identity: deps.identity,
        tsa: deps.tsa,
        ...deps.pades,
        signingTime: now,
        reason: `Sello final del documento ${doc.id}`,
        location: deps.publicUrl,
        fieldName: 'sello-final',
        modify: async (pdf) => {
          await drawStamps(pdf, stamps);
          await appendAuditCertificate(pdf, certificateData(deps, doc, requests, events, tenant, now));
        },
      });
      const recorded = await repos.transaction(async (tx) => {
        // Under the row lock, and only while the claim is still this run's: a run that lost
        // it (timed out, taken over) never overwrites the final PDF another run recorded.
        const row = await tx.documents.lock(doc.id, now);
        if (lost || ctx.signal?.aborted || !row || row.finalisedAt || row.erasedAt || row.finaliseClaimedBy !== ownerKey(owner)) return false;
        await files.write(storageKeys.final(doc.id), sealed.pdf);
        const won = await tx.documents.markFinalised(doc.id, { sha256: sealed.sha256, level: sealed.level, tsaTime: sealed.tsaTime, at: now });
        if (!won) return false;
        const outbox = await deps.record(tx, { kind: 'document_completed', at: now, document: doc, final: sealed });
        const emailIds = await deps.completionCopies(tx, { document: doc, requests, finalBytes: sealed.pdf.length, sender, notify, now });
        return { outbox, emailIds };
      });
      if (recorded === false) {
        await removeIfErased(doc.id);
        return 'skipped';
      }
      for (const emailId of recorded.emailIds) await deps.jobs.enqueue('email.send', { emailId });
      await publishWebhookEvents(deps.jobs, recorded.outbox);
      deps.logger.info({ documentId, level: sealed.level }, 'final PDF built');
      return 'finalised';
    } catch (err) {
      await repos.documents.releaseFinalisationClaim(documentId, owner);
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  };
}
