/**
 * When a failed delivery is tried again: the n-th retry waits `schedule[n-1]` after the
 * failed attempt (WEBHOOK_RETRY_SCHEDULE, default 5s,5m,30m,2h,5h,10h,10h,24h,24h: ten
 * attempts over about 3.2 days), with ±10% jitter so endpoints that failed together do
 * not retry together. A 429 or 503 with Retry-After waits that long instead, kept within
 * [this step, the longest step].
 */

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h,24h,24h';

/** `5s,5m,30m` → milliseconds; throws naming the bad entry. */
export function parseRetrySchedule(value: string): number[] {
  const steps = value.split(',').map((s) => s.trim());
  return steps.map((step) => {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(step);
    if (!match) throw new Error(`"${step}" is not a duration such as 500ms, 5s, 5m, 2h or 1d`);
    return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  });
}

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or null. */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/**
 * The delay before the next attempt after `attemptsMade` attempts, or null when the
 * schedule is spent (the delivery is exhausted).
 */
export function nextDelayMs(schedule: number[], attemptsMade: number, options: { retryAfterMs?: number | null; random?: () => number } = {}): number | null {
  const step = schedule[attemptsMade - 1];
  if (step === undefined) return null;
  const random = options.random ?? Math.random;
  let delay = step * (0.9 + 0.2 * random());
  if (options.retryAfterMs != null) delay = Math.min(Math.max(options.retryAfterMs, step), Math.max(...schedule));
  return Math.round(delay);
}
