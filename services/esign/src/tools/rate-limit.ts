import type { RequestHandler } from 'express';
import { RateLimiterUnavailableError, type RateLimiter } from '@firma-riesgo/auth';
import { RateLimitedError, UnavailableError } from '@firma-riesgo/errors';
import { optionalPrincipalOf } from '../keys/authenticate';
import { toolClient } from './client';

/**
 * The PDF tools need no key (interface §4.3), so they are limited per client: per key
 * when a valid one was sent, per client IP otherwise (behind TRUSTED_PROXIES, the
 * forwarded address). Counted in Redis when there is one, so every instance shares the
 * budget; in memory when embedded. Over the limit: 429 RATE_LIMIT_EXCEEDED with
 * Retry-After. The store unreachable: 503, never an uncounted call.
 */
export function toolRateLimit(limiter: RateLimiter, count?: (tenantId: string | null) => Promise<void>): RequestHandler {
  return async (req, res, next) => {
    const client = toolClient(req, res);
    let decision;
    try {
      decision = await limiter.consume(client);
    } catch (err) {
      if (err instanceof RateLimiterUnavailableError) throw new UnavailableError('The rate limiter is unavailable; retry shortly', 'SERVICE_UNAVAILABLE', { cause: err });
      throw err;
    }
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
    if (!decision.allowed) {
      throw new RateLimitedError(`At most ${decision.limit} tool calls a minute per client; retry in ${decision.retryAfterSeconds} s`, decision.retryAfterSeconds);
    }
    // Metering: the call, for its key's tenant or `anonymous`.
    await count?.(optionalPrincipalOf(res.locals)?.tenantId ?? null);
    next();
  };
}
