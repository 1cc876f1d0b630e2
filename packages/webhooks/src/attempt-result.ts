import type { AttemptOutcome } from './http-delivery';
import { nextDelayMs, retryAfterMs } from './schedule';

/** An endpoint that failed every delivery for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 86_400_000;

/** What an attempt leaves a delivery in. */
export interface AttemptResult {
  status: 'succeeded' | 'failed' | 'exhausted';
  /** When to try again (`failed` only). */
  nextAttemptAt: Date | null;
  /** The receiver answered 410 Gone: the endpoint should be disabled. */
  gone: boolean;
}

/**
 * The delivery's state after its `attemptsMade`-th attempt: a 2xx succeeds; a 410 exhausts it
 * (and the endpoint goes); any other failure waits the schedule's next step (a 429 or 503
 * with Retry-After waits that, within the schedule's bounds), or exhausts it when the
 * schedule is spent.
 */
export function attemptResult(outcome: AttemptOutcome, attemptsMade: number, schedule: number[], now: Date): AttemptResult {
  if (outcome.ok) return { status: 'succeeded', nextAttemptAt: null, gone: false };
  if (outcome.statusCode === 410) return { status: 'exhausted', nextAttemptAt: null, gone: true };
  const hinted = outcome.statusCode === 429 || outcome.statusCode === 503 ? retryAfterMs(outcome.retryAfter, now) : null;
  const delay = nextDelayMs(schedule, attemptsMade, { retryAfterMs: hinted });
  if (delay === null) return { status: 'exhausted', nextAttemptAt: null, gone: false };
  return { status: 'failed', nextAttemptAt: new Date(now.getTime() + delay), gone: false };
}
