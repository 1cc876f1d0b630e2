import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import { FINALISE_CLAIM_STALE_MS } from '../documents/finalise-claim';
import type { DocumentsRepository } from '../documents/repository';
import type { SignatureJobs } from './jobs';
import type { SigningRequestsRepository } from '../signing-requests/repository';

/** The sweep reads which seals and final PDFs were interrupted. */
export type ResumeInterruptedRepos = {
  requests: Pick<SigningRequestsRepository, 'pendingSealIds' | 'fullySealedAmong' | 'listForDocument'>;
  documents: Pick<DocumentsRepository, 'unclaimedUnfinalisedIds' | 'find'>;
};

/**
 * The recovery sweep (at start of a job-running process, then periodically): requests
 * signed but never sealed (a crash between commit and seal) get their seal job, and fully
 * sealed documents without a final PDF and without a live claim get theirs. One stranded
 * longer than a claim takes to go stale gets a job under a fresh id: its own job may be
 * lingering in the queue (active in a dead worker, or failed after stalling twice), where
 * the usual id would make the new one a no-op. A duplicate is harmless: its claim skips it.
 * Reads only; what it finds is enqueued.
 */
export function createResumeInterrupted(deps: {
  repos: ResumeInterruptedRepos;
  jobs: JobEnqueuer<SignatureJobs>;
  clock: () => Date;
}) {
  const { repos, jobs } = deps;
  return async function resumeInterrupted(): Promise<{ seals: number; finalisations: number }> {
    const requestIds = await repos.requests.pendingSealIds();
    for (const requestId of requestIds) await jobs.enqueue('signature.seal', { requestId });
    const now = deps.clock().getTime();
    const candidates = await repos.documents.unclaimedUnfinalisedIds(new Date(now - FINALISE_CLAIM_STALE_MS));
    const documentIds = await repos.requests.fullySealedAmong(candidates);
    for (const documentId of documentIds) {
      const claimedAt = (await repos.documents.find(documentId, new Date(now)))?.finaliseClaimedAt?.getTime();
      const sealedAt = Math.max(0, ...(await repos.requests.listForDocument(documentId)).map((r) => r.sealedAt?.getTime() ?? 0));
      const stranded = now - (claimedAt ?? sealedAt) >= FINALISE_CLAIM_STALE_MS;
      const jobId = stranded ? `finalise-${documentId}-r${Math.floor(now / FINALISE_CLAIM_STALE_MS)}` : undefined;
      await jobs.enqueue('document.finalise', { documentId }, jobId ? { jobId } : undefined);
    }
    return { seals: requestIds.length, finalisations: documentIds.length };
  };
}
