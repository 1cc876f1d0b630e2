import { z } from 'zod';
import { minuteBucket } from '@firma-riesgo/auth';
import { defineJob, type JobHandlersOf } from '@firma-riesgo/service-kit';

/**
 * Records that a token was used, off the request path. Several requests in the same
 * minute share one job (its id); the handler only ever moves `last_used_at` forward,
 * so retries and jobs arriving out of order are harmless.
 */
export const touchTokenJob = defineJob({
  name: 'token.touch',
  schema: z.object({ tokenId: z.uuid(), usedAt: z.iso.datetime() }),
  attempts: 3,
  dedupeId: (p) => `touch-${p.tokenId}-${minuteBucket(p.usedAt)}`,
  removeOnComplete: true,
});

/** The `token.touch` handler, from the tokens service. */
export function tokenJobHandlers(tokens: { touch(tokenId: string, usedAt: Date): Promise<unknown> }): JobHandlersOf<typeof touchTokenJob> {
  return { 'token.touch': (payload) => tokens.touch(payload.tokenId, new Date(payload.usedAt)) };
}
