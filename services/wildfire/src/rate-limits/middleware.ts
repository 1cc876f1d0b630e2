import type { RequestHandler, Response } from 'express';
import type { RateLimitDecision } from '@firma-riesgo/auth';
import { RateLimitedError } from '../errors';
import { principalOf, type TokenAuth } from '../tokens/authenticate';
import type { RateLimitKind, RateLimits } from './service';

/** What a router needs to guard its routes: token authentication and the rate limits. */
export interface RouteAuth extends TokenAuth {
  limits: RateLimits;
}

function setRateLimitHeaders(res: Response, decision: RateLimitDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
}

/**
 * Counts the request against the token's `kind` budget; goes in a route's `before`
 * list right after `requireToken`, so the route declares its limit where it is
 * declared. Counted responses carry X-RateLimit-Limit, -Remaining and -Reset (epoch
 * seconds); over the limit: 429 RATE_LIMIT_EXCEEDED with Retry-After; the account's
 * monthly quota spent: 429 QUOTA_EXCEEDED; Redis unreachable: 503.
 */
export function rateLimit(limits: RateLimits, kind: RateLimitKind): RequestHandler {
  return async (_req, res, next) => {
    const admission = await limits.admit(principalOf(res.locals), kind);
    if (admission.outcome === 'uncounted') return next();
    setRateLimitHeaders(res, admission.decision);
    if (admission.outcome === 'rate-limited') {
      const { limit, retryAfterSeconds } = admission.decision;
      throw new RateLimitedError(`Rate limit of ${limit} requests per minute for this token exceeded; retry in ${retryAfterSeconds} s`, retryAfterSeconds, 'RATE_LIMIT_EXCEEDED');
    }
    if (admission.outcome === 'quota-exceeded') {
      throw new RateLimitedError(
        `The account's monthly quota of ${admission.quota} requests is spent for ${admission.month}; it renews on the 1st (Spanish time)`,
        admission.retryAfterSeconds,
        'QUOTA_EXCEEDED',
      );
    }
    next();
  };
}

/**
 * A second budget for the same request (`territory`: the whole-area reads): goes before
 * `rateLimit(limits, 'data')`, so a request refused here spends nothing of the main
 * budget. Not metered; over the limit: 429 RATE_LIMIT_EXCEEDED with Retry-After and this
 * budget's X-RateLimit-* headers. Allowed requests carry the main budget's headers.
 */
export function alsoRateLimit(limits: RateLimits, kind: RateLimitKind): RequestHandler {
  return async (_req, res, next) => {
    const admission = await limits.admitAlso(principalOf(res.locals), kind);
    if (admission.outcome === 'rate-limited') {
      setRateLimitHeaders(res, admission.decision);
      const { limit, retryAfterSeconds } = admission.decision;
      throw new RateLimitedError(`Rate limit of ${limit} ${kind} requests per minute for this token exceeded; retry in ${retryAfterSeconds} s`, retryAfterSeconds, 'RATE_LIMIT_EXCEEDED');
    }
    next();
  };
}
