import { createJobRegistry } from '@firma-riesgo/service-kit';
import { touchKeyJob } from '../keys/jobs';
import { sendEmailJob } from '../mail/jobs';
import { finaliseDocumentJob, sealRequestJob } from '../signatures/jobs';
import { dispatchWebhookEventJob } from '../webhooks/jobs';

/** Every job esign runs. Adding a job here without a handler stops the worker from starting. */
export const esignJobs = createJobRegistry([sendEmailJob, touchKeyJob, sealRequestJob, finaliseDocumentJob, dispatchWebhookEventJob]);
export type EsignJobs = typeof esignJobs;
export const ESIGN_QUEUE = 'esign';
