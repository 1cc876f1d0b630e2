import type { RequestHandler } from 'express';
import type { RateLimiter } from '@firma-riesgo/auth';
import { clientRateLimit } from '@firma-riesgo/service-kit';
import { principalOf } from './authenticate';

/**
 * A per-tenant budget for a keyed route, after `authenticate`: every key of the tenant
 * shares it (a tenant with ten keys gets no more). Counted in Redis when the limiter has
 * one, so every instance shares it. Over it: 429 RATE_LIMIT_EXCEEDED with Retry-After and
 * the X-RateLimit-* headers; the store unreachable: 503.
 */
export function tenantRateLimit(limiter: RateLimiter, what: string): RequestHandler {
  return clientRateLimit(limiter, { clientOf: (_req, res) => `tenant:${principalOf(res.locals).tenantId}`, what, per: 'tenant' });
}
