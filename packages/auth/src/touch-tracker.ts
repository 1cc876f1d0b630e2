import { touchDue } from './last-used';

/**
 * Whether a request should enqueue a "last used" touch of a credential, remembering the
 * touches this instance enqueued (bounded, least recently touched first out): the stored
 * `lastUsedAt` (or a cached record's) lags behind the job, so judging it alone would
 * enqueue on every request until the job has run. A busy credential costs one job per
 * resolution (a minute) and instance.
 */
export function createTouchTracker(maxEntries = 10_000) {
  const touched = new Map<string, number>();
  return (credential: { id: string; lastUsedAt: Date | null }, now: Date): boolean => {
    const enqueued = touched.get(credential.id);
    const last =
      enqueued !== undefined && (credential.lastUsedAt === null || enqueued > credential.lastUsedAt.getTime()) ? new Date(enqueued) : credential.lastUsedAt;
    if (!touchDue(last, now)) return false;
    touched.delete(credential.id);
    touched.set(credential.id, now.getTime());
    if (touched.size > maxEntries) touched.delete(touched.keys().next().value as string);
    return true;
  };
}
