import type { JobEnqueuer, JobLogger } from '@firma-riesgo/service-kit';
import type { dispatchWebhookEventJob } from '../webhooks/jobs';

export interface ResumeInterruptedWorkDeps {
  mail: { resumeQueued(): Promise<number> };
  signatures: { resumeInterrupted(): Promise<{ seals: number; finalisations: number }> };
  webhookDelivery: { resumeInterrupted(enqueueDispatch: (eventId: string) => Promise<unknown>): Promise<{ events: number; deliveries: number }> };
  jobs: JobEnqueuer<typeof dispatchWebhookEventJob>;
}

/**
 * The recovery sweep: outbox emails still queued, signed requests never sealed, sealed
 * documents never finalised and webhook events never fanned out get their jobs again.
 * Every job is idempotent and deduplicated, so a sweep racing a live job does no harm.
 */
export function createResumeInterruptedWork(deps: ResumeInterruptedWorkDeps) {
  return async function resumeInterruptedWork(logger: Pick<JobLogger, 'info'>) {
    const emails = await deps.mail.resumeQueued();
    const { seals, finalisations } = await deps.signatures.resumeInterrupted();
    const webhooks = await deps.webhookDelivery.resumeInterrupted((eventId) => deps.jobs.enqueue('webhook.dispatch', { eventId }));
    if (emails + seals + finalisations + webhooks.events + webhooks.deliveries > 0) {
      logger.info({ emails, seals, finalisations, webhookEvents: webhooks.events, webhookDeliveries: webhooks.deliveries }, 'resumed interrupted work');
    }
    return { emails, seals, finalisations, webhooks };
  };
}
