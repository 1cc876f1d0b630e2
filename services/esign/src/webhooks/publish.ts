import type { JobQueue } from '@firma-riesgo/service-kit';
import type { EsignJobs } from '../jobs/registry';

/**
 * After the transaction that wrote the events commits: one `webhook.dispatch` each. A
 * crash before this loses nothing; the recovery sweep finds undispatched events.
 */
export async function publishWebhookEvents(jobs: Pick<JobQueue<EsignJobs>, 'enqueue'>, eventIds: string[]): Promise<void> {
  for (const eventId of eventIds) await jobs.enqueue('webhook.dispatch', { eventId });
}
