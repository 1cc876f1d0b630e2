/** How stale a stored "last used" time may get before a request records a fresh one. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Whether a request should record the credential's use: only when the stored time is
 * absent or older than the resolution, so a busy key costs one write a minute, not one
 * write per request.
 */
export function touchDue(lastUsedAt: Date | null, now: Date, resolutionMs = LAST_USED_RESOLUTION_MS): boolean {
  return lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= resolutionMs;
}

/** `yyyymmddHHMM` in UTC: the dedupe bucket of a touch job (one per credential and minute). */
export function minuteBucket(iso: string): string {
  return iso.slice(0, 16).replace(/[-T:]/g, '');
}
