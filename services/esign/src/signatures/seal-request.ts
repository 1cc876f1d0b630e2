import { sealPdf } from '@firma-riesgo/pdf-core';
import type { JobContext, JobEnqueuer, Logger } from '@firma-riesgo/service-kit';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentRecord, DocumentsRepository } from '../documents/repository';
import type { SignatureJobs } from './jobs';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { SigningRequestRow, SigningRequestsRepository } from '../signing-requests/repository';
import { storageKeys, type FileStore } from '../storage/file-store';
import { sealRequestJob } from './jobs';
import { createRemoveIfErased, originalOf, stampOf, type SealMaterial } from './seal-files';
import { drawStamps } from './stamp';

/** A seal reads its request and document, and records the seal (and `sealed`) under the document's lock. */
export type SealRequestRepos = UnitOfWork<
  SigningEventRepos & {
    requests: Pick<SigningRequestsRepository, 'find' | 'positionInDocument' | 'markSealed' | 'allSealed' | 'recordSealFailure'>;
    documents: Pick<DocumentsRepository, 'find' | 'lockRecord'>;
  }
>;

/** The seal of one signee's copy: inline after the confirmation, and the `signature.seal` job. */
export function createSealRequest(deps: SealMaterial & {
  repos: SealRequestRepos;
  files: FileStore;
  jobs: JobEnqueuer<SignatureJobs>;
  record: RecordSigningEvents;
  logger: Logger;
  clock: () => Date;
}) {
  const { repos, files, clock } = deps;
  const removeIfErased = createRemoveIfErased({ documents: repos.documents, files, clock });

  /**
   * Stamps the signee's block on the original's last page and seals it (the signing time is
   * the confirmation's), then records the seal under the document's lock: the sealed row,
   * or null when it was not recorded (erased meanwhile, or sealed by another run). `image`
   * is the signature PNG when the caller holds it; otherwise it is read from storage.
   */
  async function seal(request: SigningRequestRow, doc: DocumentRecord, image?: Buffer | null): Promise<SigningRequestRow | null> {
    const stamp = await stampOf(files, request, await repos.requests.positionInDocument(doc.id, request.id), image);
    const sealed = await sealPdf(await originalOf(files, doc), {
      identity: deps.identity,
      tsa: deps.tsa,
      ...deps.pades,
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
      const locked = await tx.documents.lockRecord(doc.id);
      if (!locked || locked.erasedAt) return null;
      const row = await tx.requests.markSealed(request.id, { level: sealed.level, tsaTime: sealed.tsaTime, sha256: sealed.sha256, at: clock() });
      if (row) await deps.record(tx, { kind: 'sealed', request, document: doc, seal: sealed });
      return row;
    });
    if (!recorded) {
      await removeIfErased(doc.id);
      return null;
    }
    if (await repos.requests.allSealed(doc.id)) await deps.jobs.enqueue('document.finalise', { documentId: doc.id });
    return recorded;
  }

  const useCase = {
    /** Seals a signed request (see `seal`). Idempotent: a sealed or erased request is skipped. */
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
     * erasure and an earlier seal. The signature PNG comes in memory, as the confirmation
     * decoded it (the stored copy is for the job and the final PDF). Answers the sealed row,
     * or null when the seal was not recorded: if it failed (TSA down), the job takes over
     * and retries.
     */
    async sealOrRetryLater(request: SigningRequestRow, doc: DocumentRecord, image: Buffer | null): Promise<SigningRequestRow | null> {
      try {
        return await seal(request, doc, image);
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
        return await useCase.sealRequest(requestId);
      } catch (err) {
        await repos.requests.recordSealFailure(requestId, (err as Error).message, ctx.attempt >= sealRequestJob.attempts);
        throw err;
      }
    },
  };
  return useCase;
}

export type SealRequest = ReturnType<typeof createSealRequest>;
