import { z } from 'zod';
import { minuteBucket } from '@platform/auth';
import { defineJob } from '@platform/service-kit';

/** Records that a key was used, off the request path (see wildfire's `token.touch`). */
export const touchKeyJob = defineJob({
  name: 'key.touch',
  schema: z.object({ keyId: z.uuid(), usedAt: z.iso.datetime() }),
  attempts: 3,
  dedupeId: (p) => `touch-${p.keyId}-${minuteBucket(p.usedAt)}`,
  removeOnComplete: true,
});
