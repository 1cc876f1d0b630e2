import { createJobRegistry, storageSweepJob, storageSweepJobHandlers, storageSweepSchedules, type JobHandlers, type ServiceSchedule } from '@firma-riesgo/service-kit';
import { keyJobHandlers, touchKeyJob } from '../keys/jobs';
import { mailJobHandlers, sendEmailJob } from '../mail/jobs';
import { recoveryJobHandlers, recoveryJobSchedules, recoverySweepJob } from '../recovery/jobs';
import { finaliseDocumentJob, sealRequestJob, signatureJobHandlers } from '../signatures/jobs';
import { dispatchWebhookEventJob, webhookDispatchJobHandlers } from '../webhooks/jobs';
import { reminderJobHandlers, reminderJobSchedules, reminderSweepJob } from '../signing-requests/jobs';

/**
 * Every job of the main esign queue, collected from the features' `jobs.ts` (each defines
 * its jobs, their handlers and their schedules). A job without a handler stops the worker
 * from starting. Webhook deliveries have a queue of their own (`webhooks/jobs.ts`).
 */
export const esignJobs = createJobRegistry([sendEmailJob, touchKeyJob, sealRequestJob, finaliseDocumentJob, dispatchWebhookEventJob, storageSweepJob, recoverySweepJob, reminderSweepJob]);
export type EsignJobs = typeof esignJobs;
export const ESIGN_QUEUE = 'esign';

export function esignJobHandlers(features: {
  mail: Parameters<typeof mailJobHandlers>[0];
  keys: Parameters<typeof keyJobHandlers>[0];
  signatures: Parameters<typeof signatureJobHandlers>[0];
  webhookDelivery: Parameters<typeof webhookDispatchJobHandlers>[0];
  storageSweep: Parameters<typeof storageSweepJobHandlers>[0];
  recovery: Parameters<typeof recoveryJobHandlers>[0];
  reminders: Parameters<typeof reminderJobHandlers>[0];
}): JobHandlers<EsignJobs> {
  return {
    ...mailJobHandlers(features.mail),
    ...keyJobHandlers(features.keys),
    ...signatureJobHandlers(features.signatures),
    ...webhookDispatchJobHandlers(features.webhookDelivery),
    ...storageSweepJobHandlers(features.storageSweep),
    ...recoveryJobHandlers(features.recovery),
    ...reminderJobHandlers(features.reminders),
  };
}

/**
 * The repeatable jobs: the recovery sweep every ESIGN_RECOVERY_INTERVAL_MS (and at start);
 * with ESIGN_STORAGE=postgres, the orphan-chunk sweep hourly; the reminder sweep every
 * ESIGN_REMINDER_INTERVAL_MS. Declared by the processes that run jobs.
 */
export function esignSchedules(config: { recoveryIntervalMs: number; reminderIntervalMs: number }, files: Parameters<typeof storageSweepSchedules>[0]): ServiceSchedule<EsignJobs>[] {
  return [...recoveryJobSchedules(config), ...storageSweepSchedules(files), ...reminderJobSchedules(config)];
}
