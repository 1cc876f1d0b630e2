import { z } from 'zod';
import { minuteBucket } from '@firma-riesgo/auth';
import { defineJob } from '@firma-riesgo/service-kit';

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
