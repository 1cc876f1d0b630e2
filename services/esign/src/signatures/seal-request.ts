import { sealPdf } from '@firma-riesgo/pdf-core';
import { JobFailedError, JobRetryingError, JobWaitTimeoutError, type JobContext, type JobEnqueuer, type JobWaiter, type Logger } from '@firma-riesgo/service-kit';
import type { UnitOfWork } from '../db/unit-of-work';
import type { DocumentRecord, DocumentsRepository } from '../documents/repository';
import type { SignatureJobs } from './jobs';
import type { RecordSigningEvents, SigningEventRepos } from '../signing-events/record-event';
import type { SigningRequestRow, SigningRequestsRepository } from '../signing-requests/repository';
import { storageKeys, type FileStore } from '../storage/file-store';
import { sealRequestJob } from './jobs';
import { createRemoveIfErased, originalOf, stampOf, type SealMaterial } from './seal-files';
import { drawStamps } from './stamp';

/** A seal reads its request and document (unless handed them), and records the seal (and `sealed`) under the document's lock. */
export type SealRequestRepos = UnitOfWork<
  SigningEventRepos & {
    requests: Pick<SigningRequestsRepository, 'find' | 'positionInDocument' | 'markSealed' | 'allSealed' | 'recordSealFailure'>;
    documents: Pick<DocumentsRepository, 'find' | 'lockRecord'>;
  }
>;

/**
 * What the confirmation already holds when it asks for the seal: the rows as its
 * transaction left them (signed, `sealing`), the stamp's slot, and the signature PNG it
 * decoded. A seal job running in the confirming process takes them from memory
 * (`ctx.local`) instead of reading them again, and leaves the sealed row in `sealed`.
 */
export interface SealHandoff {
  request: SigningRequestRow;
  document: DocumentRecord;
  position: number;
  image: Buffer | null;
  sealed?: SigningRequestRow;
}

/**
 * The seal of one signee's copy. There is one path: the `signature.seal` job. The
 * confirmation enqueues it and waits for its first attempt (`awaitSeal`); a failed attempt
 * (the TSA down) is retried by the job with backoff, and a seal interrupted by a crash is
 * enqueued again by the recovery sweep.
 */
export function createSealRequest(deps: SealMaterial & {
  repos: SealRequestRepos;
  files: FileStore;
  jobs: JobEnqueuer<SignatureJobs> & JobWaiter<typeof sealRequestJob>;
  /** How long a confirmation waits for the seal's first attempt before answering `sealing`. */
  waitMs: number;
  record: RecordSigningEvents;
  logger: Logger;
  clock: () => Date;
}) {
  const { repos, files, clock } = deps;
  const removeIfErased = createRemoveIfErased({ documents: repos.documents, files, clock });

  /** The request, document, slot and PNG of a seal not handed them: read. Null when there is nothing to seal. */
  async function read(requestId: string): Promise<SealHandoff | null> {
    const request = await repos.requests.find(requestId);
    if (!request || request.status !== 'signed' || request.sealStatus === 'sealed' || !request.signedAt) return null;
    const document = await repos.documents.find(request.documentId, clock());
    if (!document || document.erasedAt) return null;
    return { request, document, position: await repos.requests.positionInDocument(document.id, request.id), image: null };
  }

  /**
   * Stamps the signee's block on the original's last page and seals it (the signing time is
   * the confirmation's), then records the seal under the document's lock: the sealed row,
   * or null when it was not recorded (erased meanwhile, or sealed by another run). The PNG
   * is read from storage when it was not handed over.
   */
  async function seal(input: SealHandoff, imageInMemory: boolean): Promise<SigningRequestRow | null> {
    const { request, document: doc } = input;
    const stamp = await stampOf(files, request, input.position, imageInMemory ? input.image : undefined);
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
    await files.write(storageKeys.signed(doc.id, request.id), sealed.pdf);
    const recorded = await repos.transaction(async (tx) => {
      // Erasure takes the same row lock: a seal is recorded before it or not at all.
      const locked = await tx.documents.lockRecord(doc.id);
      if (!locked || locked.erasedAt) return null;
      const row = await tx.requests.markSealed(request.id, { level: sealed.level, tsaTime: sealed.tsaTime, sha256: sealed.sha256, at: clock() });
      if (!row) return null;
      await deps.record(tx, { kind: 'sealed', request, document: doc, seal: sealed });
      // Under the document's lock, so of two last seals the second sees the first.
      return { row, documentSealed: await tx.requests.allSealed(doc.id) };
    });
    if (!recorded) {
      await removeIfErased(doc.id);
      return null;
    }
    if (recorded.documentSealed) await deps.jobs.enqueue('document.finalise', { documentId: doc.id });
    return recorded.row;
  }

  return {
    /**
     * The `signature.seal` handler. Idempotent: a sealed or erased request is skipped.
     * Each failure is recorded on the request; the last attempt's marks the seal failed.
     */
    async sealJob(requestId: string, ctx: Pick<JobContext, 'attempt' | 'local'>): Promise<'sealed' | 'skipped'> {
      const handed = ctx.local as SealHandoff | undefined;
      try {
        const input = handed ?? (await read(requestId));
        if (!input) return 'skipped';
        const row = await seal(input, handed !== undefined);
        if (handed && row) handed.sealed = row;
        return row ? 'sealed' : 'skipped';
      } catch (err) {
        await repos.requests.recordSealFailure(requestId, (err as Error).message, ctx.attempt >= sealRequestJob.attempts);
        throw err;
      }
    },

    /**
     * Enqueues the seal of a request just signed and waits for its first attempt, at most
     * `waitMs`: the sealed row when it was sealed in this process meanwhile, otherwise null
     * (sealed by a worker elsewhere, or still `sealing`: the attempt failed and the job
     * retries, or it is still running), and the caller reads the request as recorded.
     */
    async awaitSeal(handoff: SealHandoff): Promise<SigningRequestRow | null> {
      try {
        await deps.jobs.enqueueAndWait('signature.seal', { requestId: handoff.request.id }, { timeoutMs: deps.waitMs, until: 'first-attempt', local: handoff, firstAttemptHere: true });
      } catch (err) {
        const settled = err instanceof JobRetryingError || err instanceof JobFailedError || err instanceof JobWaitTimeoutError;
        // Not enqueued (Redis unreachable): the request stays `sealing`, and the recovery sweep enqueues its seal.
        if (!settled) deps.logger.error({ requestId: handoff.request.id, err }, 'could not enqueue the seal; the recovery sweep will');
        else deps.logger.warn({ requestId: handoff.request.id, err: (err as Error).message }, 'seal not done within the confirmation; its job goes on');
      }
      return handoff.sealed ?? null;
    },
  };
}

export type SealRequest = ReturnType<typeof createSealRequest>;
