import { z } from 'zod';
import { defineJob, type JobContext, type JobHandlersOf } from '@firma-riesgo/service-kit';

/** Sends one outbox row. The payload is the row id only: no address ever sits in Redis. */
export const sendEmailJob = defineJob({
  name: 'email.send',
  schema: z.object({ emailId: z.uuid() }),
  attempts: 8,
  backoff: { type: 'exponential', delayMs: 5_000 },
  dedupeId: (p) => `email-${p.emailId}`,
  removeOnComplete: true,
});

/** The `email.send` handler, from the mail service. */
export function mailJobHandlers(mail: { deliver(emailId: string, ctx: JobContext): Promise<unknown> }): JobHandlersOf<typeof sendEmailJob> {
  return { 'email.send': (payload, ctx) => mail.deliver(payload.emailId, ctx) };
}
