import type { Redis } from 'ioredis';
import { createRateLimiter, RateLimiterUnavailableError, type RateLimitDecision, type RateLimiter, type RateLimitWindow } from '@firma-riesgo/auth';
import { UnavailableError } from '../errors';
import type { WildfirePrincipal } from '../tokens/authenticate';
import { monthInSpain, secondsToNextMonthInSpain } from './month';
import type { AdmitInOneCall } from './redis-usage-counter';
import type { UsageCounter } from './usage-counter';

export { monthInSpain, secondsToNextMonthInSpain } from './month';

/**
 * The budgets a route can draw from: `data` for the read endpoints (m1, m3, m10,
 * decisiones, framing, ecosystem, territory, summary), `reports` for report creation,
 * and `territory`, a second, smaller budget of the whole-area reads (territory and
 * summary), which also take one point of `data`. Each token has its own budget of each.
 */
export const RATE_LIMIT_KINDS = ['data', 'reports', 'territory'] as const;
export type RateLimitKind = (typeof RATE_LIMIT_KINDS)[number];

export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitsOptions {
  /** Requests per token per minute, by kind. */
  perMinute: Record<RateLimitKind, number>;
  /** Namespaces the counters in Redis (RATE_LIMIT_PREFIX). */
  keyPrefix: string;
  /** Shared counters for every instance; absent (embedded mode): counted in this process. */
  redis?: Redis;
  /** The accounts' monthly counters (in Redis, or in this process without Redis), flushed to Postgres. */
  usage: UsageCounter & {
    /** Present with Redis: the limit and the count in one round trip. */
    admit?: AdmitInOneCall;
  };
  clock?: () => Date;
}

export type Admission =
  | { outcome: 'uncounted' }
  | { outcome: 'allowed'; decision: RateLimitDecision }
  | { outcome: 'rate-limited'; decision: RateLimitDecision }
  | { outcome: 'quota-exceeded'; decision: RateLimitDecision; quota: number; month: string; retryAfterSeconds: number };

export interface MonthUsage {
  /** `YYYY-MM`, Spanish calendar. */
  month: string;
  requests: number;
  quota: number | null;
}

type Caller = Pick<WildfirePrincipal, 'tokenId' | 'accountId' | 'type' | 'monthlyQuota'>;

const unavailable = (cause: unknown) =>
  new UnavailableError('Rate limiting is unavailable because its Redis store cannot be reached; the request was not served. Retry later', 'SERVICE_UNAVAILABLE', {
    cause,
  });

/**
 * Per-token rate limits and per-account monthly metering. Test tokens are never
 * counted. Live tokens take one point from the route's budget (Redis, shared by
 * every instance) and, when allowed, one request from the account's month (the usage
 * counter, flushed to Postgres in batches).
 * A store that cannot be asked refuses the request: unmetered traffic would defeat
 * the limits, so the API fails closed.
 */
export function createRateLimits(options: RateLimitsOptions) {
  const clock = options.clock ?? (() => new Date());
  const limiters = Object.fromEntries(
    RATE_LIMIT_KINDS.map((kind) => [
      kind,
      createRateLimiter({ points: options.perMinute[kind], durationSeconds: RATE_LIMIT_WINDOW_SECONDS, keyPrefix: `${options.keyPrefix}:${kind}`, redis: options.redis }),
    ]),
  ) as Record<RateLimitKind, RateLimiter>;

  async function ask<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof RateLimiterUnavailableError) throw unavailable(err);
      throw err;
    }
  }

  return {
    perMinute: options.perMinute,

    /** Moves the pending usage counts to Postgres now (the counter also does so periodically). */
    flushUsage: () => options.usage.flush(),

    /** Stops the periodic flush after a last one; call when the process stops serving. */
    close: () => options.usage.close(),

    /** Counts one request of `caller` against `kind`. Throws UnavailableError (503) when Redis cannot be asked. */
    async admit(caller: Caller, kind: RateLimitKind): Promise<Admission> {
      if (caller.type === 'test') return { outcome: 'uncounted' };
      const now = clock();
      const month = monthInSpain(now);
      let decision: RateLimitDecision;
      let counted: number | null;
      const { admit } = options.usage;
      if (admit) {
        ({ decision, total: counted } = await ask(() => admit(limiters[kind], caller.tokenId, caller.accountId, month, caller.monthlyQuota, now)));
        if (!decision.allowed) return { outcome: 'rate-limited', decision };
      } else {
        decision = await ask(() => limiters[kind].consume(caller.tokenId));
        if (!decision.allowed) return { outcome: 'rate-limited', decision };
        counted = await ask(() => options.usage.count(caller.accountId, month, caller.monthlyQuota, now));
      }
      if (counted === null) {
        return { outcome: 'quota-exceeded', decision, quota: caller.monthlyQuota!, month, retryAfterSeconds: secondsToNextMonthInSpain(now) };
      }
      return { outcome: 'allowed', decision };
    },

    /**
     * Takes one point of a second budget (`territory`) without metering the account's
     * month: the request is metered once, by the `admit` of its main budget.
     */
    async admitAlso(caller: Caller, kind: RateLimitKind): Promise<Exclude<Admission, { outcome: 'quota-exceeded' }>> {
      if (caller.type === 'test') return { outcome: 'uncounted' };
      const decision = await ask(() => limiters[kind].consume(caller.tokenId));
      return decision.allowed ? { outcome: 'allowed', decision } : { outcome: 'rate-limited', decision };
    },

    /** The caller's open windows, without counting anything; null for test tokens. */
    async windows(caller: Caller): Promise<Record<RateLimitKind, RateLimitWindow> | null> {
      if (caller.type === 'test') return null;
      const [data, reports, territory] = await ask(() => Promise.all(RATE_LIMIT_KINDS.map((kind) => limiters[kind].peek(caller.tokenId))));
      return { data: data!, reports: reports!, territory: territory! };
    },

    /** The account's requests this month; null for test tokens, which are never metered. */
    async usage(caller: Caller): Promise<MonthUsage | null> {
      if (caller.type === 'test') return null;
      const now = clock();
      const month = monthInSpain(now);
      return { month, requests: await ask(() => options.usage.requests(caller.accountId, month, now)), quota: caller.monthlyQuota };
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
