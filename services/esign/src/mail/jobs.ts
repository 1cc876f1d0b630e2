import { z } from 'zod';
import { defineJob } from '@firma-riesgo/service-kit';

/** Sends one outbox row. The payload is the row id only: no address ever sits in Redis. */
export const sendEmailJob = defineJob({
  name: 'email.send',
  schema: z.object({ emailId: z.uuid() }),
  attempts: 8,
  backoff: { type: 'exponential', delayMs: 5_000 },
  dedupeId: (p) => `email-${p.emailId}`,
  removeOnComplete: true,
});
