import { z } from 'zod';
import { minuteBucket } from '@firma-riesgo/auth';
import { defineJob, type JobHandlersOf } from '@firma-riesgo/service-kit';

/** Records that a key was used, off the request path (see wildfire's `token.touch`). */
export const touchKeyJob = defineJob({
  name: 'key.touch',
  schema: z.object({ keyId: z.uuid(), usedAt: z.iso.datetime() }),
  attempts: 3,
  dedupeId: (p) => `touch-${p.keyId}-${minuteBucket(p.usedAt)}`,
  removeOnComplete: true,
});

/** The `key.touch` handler, from the keys service. */
export function keyJobHandlers(keys: { touch(keyId: string, usedAt: Date): Promise<unknown> }): JobHandlersOf<typeof touchKeyJob> {
  return { 'key.touch': (payload) => keys.touch(payload.keyId, new Date(payload.usedAt)) };
}
