import type { RequestHandler } from 'express';
import { RateLimiterUnavailableError, type RateLimiter } from '@firma-riesgo/auth';
import { RateLimitedError, UnavailableError } from '@firma-riesgo/errors';

/**
 * POST /verificar needs no key, so it is limited per client IP (behind TRUSTED_PROXIES,
 * the forwarded address), the tools' mechanism: counted in Redis when there is one, in
 * memory when embedded; over the limit 429 with Retry-After; the store down, 503.
 */
export function verificationRateLimit(limiter: RateLimiter): RequestHandler {
  return async (req, res, next) => {
    let decision;
    try {
      decision = await limiter.consume(verificationClient(req));
    } catch (err) {
      if (err instanceof RateLimiterUnavailableError) throw new UnavailableError('The rate limiter is unavailable; retry shortly', 'SERVICE_UNAVAILABLE', { cause: err });
      throw err;
    }
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
    if (!decision.allowed) {
      throw new RateLimitedError(`At most ${decision.limit} verifications a minute per client; retry in ${decision.retryAfterSeconds} s`, decision.retryAfterSeconds);
    }
    next();
  };
}

export const verificationClient = (req: { ip?: string }) => `ip:${req.ip ?? 'unknown'}`;
