import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** The outcome of one request against a limit, with what the rate-limit headers need. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends, in whole epoch seconds. */
  resetAt: number;
  /** Whole seconds to wait before retrying: at least 1 when refused, 0 when allowed. */
  retryAfterSeconds: number;
}

/** What is left of a key's budget, as a status page shows it. */
export interface RateLimitWindow {
  limit: number;
  remaining: number;
  /** When the open window ends, in whole epoch seconds; null when none is open. */
  resetAt: number | null;
}

export interface RateLimiter {
  /**
   * Takes `points` (a positive integer, default 1) from the budget of `key`.
   * Resolves with the decision, refusals included; rejects with
   * RateLimiterUnavailableError when the store cannot be asked.
   */
  consume(key: string, points?: number): Promise<RateLimitDecision>;
  /**
   * The current window of `key` without taking anything from it; `resetAt` is null
   * when no window is open (the next request opens one). Rejects like `consume`.
   */
  peek(key: string): Promise<RateLimitWindow>;
  /** The Redis key of `key`'s window (what FIXED_WINDOW_TAKE_LUA takes from). */
  storeKey(key: string): string;
  readonly limit: number;
  readonly windowSeconds: number;
}

export interface RateLimiterOptions {
  /** Points allowed per key per window. */
  points: number;
  durationSeconds: number;
  /** Namespaces the counters; limiters with the same prefix and Redis share budgets. */
  keyPrefix: string;
  /**
   * Shared store for every instance of the service. Without it the budget is
   * per process, which is only right for tests and single-process tools.
   */
  redis?: Redis;
}

/**
 * The store behind a limiter could not be asked, so nobody knows whether the
 * request is within its budget. Callers answer 503: the limits protect tenants
 * from each other, and letting traffic through unmetered would defeat them.
 */
export class RateLimiterUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('Rate limiter store is unavailable', options);
    this.name = new.target.name;
  }
}

function assertPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
}

function decision(res: RateLimiterRes, allowed: boolean, limit: number): RateLimitDecision {
  return windowDecision(limit - res.remainingPoints, res.msBeforeNext, allowed, limit);
}

/**
 * The Lua that takes one point from a fixed window in Redis, exactly as the Redis limiter
 * does it (same key, `<keyPrefix>:<key>`, same counter and expiry), for callers that fold
 * the limit into a script of their own to save a round trip. KEYS[1]: the window's key;
 * ARGV[1]: the window in seconds. Leaves `consumed` (points taken, this one included) and
 * `ttl` (ms left in the window) in local variables.
 */
export const FIXED_WINDOW_TAKE_LUA = `
redis.call('set', KEYS[1], 0, 'EX', ARGV[1], 'NX')
local consumed = redis.call('incrby', KEYS[1], 1)
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[1])
  ttl = 1000 * ARGV[1]
end`;

/** The decision of a fixed window holding `consumed` points with `msBeforeNext` left; what `consume` answers. */
export function windowDecision(consumed: number, msBeforeNext: number, allowed: boolean, limit: number): RateLimitDecision {
  const msLeft = Math.max(0, msBeforeNext);
  return {
    allowed,
    limit,
    remaining: allowed ? Math.max(0, limit - consumed) : 0,
    resetAt: Math.ceil((Date.now() + msLeft) / 1000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(msLeft / 1000)),
  };
}

function redisLimiter(redis: Redis, points: number, duration: number, keyPrefix: string): RateLimiterRedis {
  // With rejectIfRedisNotReady the limiter refuses at once while ioredis is not
  // "ready", instead of queueing the command until the client gives up (never,
  // with maxRetriesPerRequest: null). It also means it never sends the command
  // that would make a lazyConnect client connect, so the connection is started
  // here; failures surface as the client's own 'error' events.
  if (redis.status === 'wait') redis.connect().catch(() => undefined);
  return new RateLimiterRedis({
    storeClient: redis,
    // false selects the ioredis call conventions; true is for node-redis v4+.
    useRedisPackage: false,
    rejectIfRedisNotReady: true,
    points,
    duration,
    keyPrefix,
    // No insuranceLimiter: on a Redis failure it would silently switch to
    // per-process memory counters, multiplying every budget by the instance count.
  });
}

/**
 * A fixed-window limiter, counted in Redis when one is given and in process
 * memory otherwise. Each key's window starts at its first request.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { points: limit, durationSeconds, keyPrefix, redis } = options;
  assertPositiveInteger('points', limit);
  assertPositiveInteger('durationSeconds', durationSeconds);
  if (!keyPrefix) throw new TypeError('keyPrefix must not be empty');
  const limiter = redis
    ? redisLimiter(redis, limit, durationSeconds, keyPrefix)
    : new RateLimiterMemory({ points: limit, duration: durationSeconds, keyPrefix });

  return {
    limit,
    windowSeconds: durationSeconds,
    storeKey: (key: string) => `${keyPrefix}:${key}`,
    async consume(key: string, points = 1): Promise<RateLimitDecision> {
      assertPositiveInteger('points', points);
      let res: RateLimiterRes;
      try {
        res = await limiter.consume(key, points);
      } catch (rejection) {
        // rate-limiter-flexible rejects both for "over the limit" (a RateLimiterRes)
        // and for store failures (an Error); only the first is a decision.
        if (rejection instanceof RateLimiterRes) return decision(rejection, false, limit);
        throw new RateLimiterUnavailableError({ cause: rejection });
      }
      return decision(res, true, limit);
    },
    async peek(key: string): Promise<RateLimitWindow> {
      let res: RateLimiterRes | null;
      try {
        res = await limiter.get(key);
      } catch (err) {
        throw new RateLimiterUnavailableError({ cause: err });
      }
      if (!res || res.msBeforeNext <= 0) return { limit, remaining: limit, resetAt: null };
      return { limit, remaining: Math.max(0, res.remainingPoints), resetAt: Math.ceil((Date.now() + res.msBeforeNext) / 1000) };
    },
  };
}
