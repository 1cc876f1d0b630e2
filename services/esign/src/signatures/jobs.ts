import { z } from 'zod';
import { defineJob } from '@firma-riesgo/service-kit';

/**
 * Seals a signed request's copy when the inline attempt during confirmation failed
 * (typically the TSA). Retried with backoff for about two hours; never downgraded to B-B.
 */
export const sealRequestJob = defineJob({
  name: 'signature.seal',
  schema: z.object({ requestId: z.uuid() }),
  attempts: 12,
  backoff: { type: 'exponential', delayMs: 2_000 },
  dedupeId: (p) => `seal-${p.requestId}`,
  removeOnComplete: true,
  timeoutMs: 120_000,
});

/** Builds the combined final PDF once every request of the document is signed and sealed. */
export const finaliseDocumentJob = defineJob({
  name: 'document.finalise',
  schema: z.object({ documentId: z.uuid() }),
  attempts: 12,
  backoff: { type: 'exponential', delayMs: 2_000 },
  dedupeId: (p) => `finalise-${p.documentId}`,
  removeOnComplete: true,
  timeoutMs: 300_000,
});
