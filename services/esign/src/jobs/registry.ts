import { createJobRegistry, storageSweepJob, storageSweepSchedules, type BlobStore, type JobSchedule } from '@firma-riesgo/service-kit';
import { touchKeyJob } from '../keys/jobs';
import { sendEmailJob } from '../mail/jobs';
import { finaliseDocumentJob, sealRequestJob } from '../signatures/jobs';
import { dispatchWebhookEventJob } from '../webhooks/jobs';

/** Every job esign runs. Adding a job here without a handler stops the worker from starting. */
export const esignJobs = createJobRegistry([sendEmailJob, touchKeyJob, sealRequestJob, finaliseDocumentJob, dispatchWebhookEventJob, storageSweepJob]);
export type EsignJobs = typeof esignJobs;
export const ESIGN_QUEUE = 'esign';

/** The repeatable jobs: with ESIGN_STORAGE=postgres, the orphan-chunk sweep hourly. Declared by the processes that run jobs. */
export function esignSchedules(files: Pick<BlobStore, 'kind'>): JobSchedule<EsignJobs>[] {
  return storageSweepSchedules(files);
}
