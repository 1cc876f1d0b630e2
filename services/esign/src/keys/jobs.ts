import { z } from 'zod';
import { defineJob } from '@platform/service-kit';

/** `yyyymmddHHMM` in UTC: one touch per key and minute is plenty for a "last used" column. */
function minuteOf(iso: string): string {
  return iso.slice(0, 16).replace(/[-T:]/g, '');
}

/** Records that a key was used, off the request path (see wildfire's `token.touch`). */
export const touchKeyJob = defineJob({
  name: 'key.touch',
  schema: z.object({ keyId: z.uuid(), usedAt: z.iso.datetime() }),
  attempts: 3,
  dedupeId: (p) => `touch-${p.keyId}-${minuteOf(p.usedAt)}`,
  removeOnComplete: true,
});
