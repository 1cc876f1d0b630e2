import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { NotFoundError, UnauthorizedError } from '@firma-riesgo/errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Guards /metrics: with METRICS_TOKEN set, only `Authorization: Bearer <token>` reads it
 * (401 otherwise); unset, /metrics answers 404 like any unknown path, so an operator
 * who forgets the token exposes nothing.
 */
export function metricsAccess(token: string | undefined): RequestHandler {
  const expected = token ? digest(token) : undefined;
  return (req, _res, next) => {
    if (!expected) return next(new NotFoundError(`No route for ${req.method} ${req.baseUrl}`, 'NOT_FOUND'));
    const match = /^Bearer (\S+)$/i.exec(req.get('authorization') ?? '');
    // Compares digests, so the comparison takes the same time whatever the length sent.
    if (match && timingSafeEqual(digest(match[1]!), expected)) return next();
    next(new UnauthorizedError('/metrics needs Authorization: Bearer <METRICS_TOKEN>', 'UNAUTHORIZED', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } }));
  };
}
