import type { JobEnqueuer, JobWaiter, Logger } from '@firma-riesgo/service-kit';
import type { SignatureJobs, sealRequestJob } from './jobs';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';
import type { RecordSigningEvents } from '../signing-events/record-event';
import type { FileStore } from '../storage/file-store';
import { createAuditTrailPdf } from './audit-trail-pdf';
import { createSendCompletionCopies } from './send-completion-copies';
import type { Sender } from '../branding/service';
import type { sendEmailJob } from '../mail/jobs';
import { createFinaliseDocument, type FinaliseDocumentRepos } from './finalise-document';
import { createResumeInterrupted, type ResumeInterruptedRepos } from './resume-interrupted';
import type { SealMaterial } from './seal-files';
import { createSealRequest, type SealRequestRepos } from './seal-request';

/** Sealing's repositories: the union of what its use cases declare. */
export type SignaturesRepos = SealRequestRepos & FinaliseDocumentRepos & ResumeInterruptedRepos;

export interface SignaturesDeps extends SealMaterial {
  repos: SignaturesRepos;
  files: FileStore;
  jobs: JobEnqueuer<SignatureJobs | typeof dispatchWebhookEventJob | typeof sendEmailJob> & JobWaiter<typeof sealRequestJob>;
  /** How long a confirmation waits for its seal's first attempt (ESIGN_SEAL_WAIT_MS). */
  sealWaitMs: number;
  /** The sender as recipients see it (branding): the completion copies show it. */
  sender: (tenantId: string) => Promise<Sender>;
  /** The tenant's notification address (tenant settings): it gets the completion copy too. */
  notifyEmail: (tenantId: string) => Promise<string | null>;
  /** A completion copy's final PDF is attached up to this size (ESIGN_MAIL_ATTACH_MAX_MB), linked above it. */
  mailAttachMaxBytes: number;
  /** The tenant's display name, from the keys feature (the audit certificate prints it). */
  tenantName: (tenantId: string) => Promise<string>;
  logger: Logger;
  /** Writes the `sealed` and `document_completed` events in the transactions that record them. */
  record: RecordSigningEvents;
  clock?: () => Date;
}

/** The seals, the final PDF, the audit trail PDF and the recovery sweep, one use case each (this folder). */
export function createSignaturesService(deps: SignaturesDeps) {
  const clock = deps.clock ?? (() => new Date());
  const use = { ...deps, clock };
  const seal = createSealRequest({ ...use, waitMs: deps.sealWaitMs });
  return {
    awaitSeal: seal.awaitSeal,
    sealJob: seal.sealJob,
    finaliseDocument: createFinaliseDocument({
      ...use,
      completionCopies: createSendCompletionCopies({ record: deps.record, publicUrl: deps.publicUrl, attachMaxBytes: deps.mailAttachMaxBytes }),
    }),
    auditTrailPdf: createAuditTrailPdf(use),
    resumeInterrupted: createResumeInterrupted(use),
  };
}

export type SignaturesService = ReturnType<typeof createSignaturesService>;
