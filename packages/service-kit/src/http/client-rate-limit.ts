import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterUnavailableError, type RateLimiter } from '@firma-riesgo/auth';
import { RateLimitedError, UnavailableError } from '@firma-riesgo/errors';

/**
 * A per-client budget for routes anyone may call (no key needed): the client is whatever
 * `clientOf` says (a key id, a client IP). Counted in Redis when the limiter has one, so
 * every instance shares it; in memory when embedded. Every counted answer carries
 * X-RateLimit-Limit, -Remaining and -Reset; over the limit 429 RATE_LIMIT_EXCEEDED with
 * Retry-After; the store unreachable 503, never an uncounted call.
 */
export function clientRateLimit(
  limiter: RateLimiter,
  options: { clientOf: (req: Request, res: Response) => string; what: string; /** Who the budget belongs to, as the message says it; default `client`. */ per?: string },
): RequestHandler {
  const window = limiter.windowSeconds === 60 ? 'a minute' : limiter.windowSeconds === 86_400 ? 'a day' : `per ${limiter.windowSeconds} s`;
  const per = options.per ?? 'client';
  return async (req, res, next) => {
    let decision;
    try {
      decision = await limiter.consume(options.clientOf(req, res));
    } catch (err) {
      if (err instanceof RateLimiterUnavailableError) throw new UnavailableError('The rate limiter is unavailable; retry shortly', 'SERVICE_UNAVAILABLE', { cause: err });
      throw err;
    }
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
    if (!decision.allowed) {
      throw new RateLimitedError(`At most ${decision.limit} ${options.what} ${window} per ${per}; retry in ${decision.retryAfterSeconds} s`, decision.retryAfterSeconds);
    }
    next();
  };
}
