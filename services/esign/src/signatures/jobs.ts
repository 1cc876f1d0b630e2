import { z } from 'zod';
import { defineJob, type JobContext, type JobHandlersOf } from '@firma-riesgo/service-kit';

/**
 * Seals a signed request's copy: the only way a copy is sealed. The confirmation enqueues
 * it and waits for its first attempt (handing over, in memory, what it holds); the
 * recovery sweep enqueues it for a seal a crash interrupted. A failed attempt (the TSA
 * down) is retried with backoff for about two hours; never downgraded to B-B.
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

export type SignatureJobs = typeof sealRequestJob | typeof finaliseDocumentJob;

/** The seal and finalise handlers, from the signatures service. */
export function signatureJobHandlers(signatures: {
  sealJob(requestId: string, ctx: JobContext): Promise<unknown>;
  finaliseDocument(documentId: string, ctx: JobContext): Promise<unknown>;
}): JobHandlersOf<SignatureJobs> {
  return {
    'signature.seal': (payload, ctx) => signatures.sealJob(payload.requestId, ctx),
    'document.finalise': (payload, ctx) => signatures.finaliseDocument(payload.documentId, ctx),
  };
}
