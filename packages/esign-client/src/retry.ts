/**
 * The retry policy of the service clients (DESIGN §4), the same as the wildfire client's:
 * 500 and 503 only (never a 4xx, 429 included), 1 s doubling to 30 s, 4 attempts; the
 * server's Retry-After wins when it asks for longer, and a wait past 30 s is not made.
 */
export const RETRY_STATUSES: readonly number[] = [500, 503];
export const MAX_ATTEMPTS = 4;
export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 30_000;

/** Backoff before attempt `attempt + 1` (attempt counts from 1): 1 s, 2 s, 4 s, ... capped at 30 s. */
export function backoffMs(attempt: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (attempt - 1));
}

/** Retry-After as milliseconds: delay-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** How long to wait before retrying, or null not to retry. */
export function retryDelayMs(status: number, attempt: number, retryAfter: number | null, maxAttempts: number): number | null {
  if (!RETRY_STATUSES.includes(status) || attempt >= maxAttempts) return null;
  const delay = Math.max(backoffMs(attempt), retryAfter ?? 0);
  return delay > MAX_DELAY_MS ? null : delay;
}
