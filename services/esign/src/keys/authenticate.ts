import type { RequestHandler } from 'express';
import { parseAuthorizationHeader } from '@firma-riesgo/auth';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../errors';
import type { KeyRecord } from './repository';
import type { JobEnqueuer, Logger } from '@firma-riesgo/service-kit';
import type { touchKeyJob } from './jobs';
import type { KeysService } from './service';

export interface EsignPrincipal {
  keyId: string;
  tenantId: string;
  tenant: string;
  role: KeyRecord['role'];
}

declare module 'express-serve-static-core' {
  interface Locals {
    esign?: EsignPrincipal;
    principal?: string;
  }
}

/**
 * Resolves the `authorization` header (`Bearer <key>` or the bare key) to the key's
 * tenant. The tenant always comes from the key, never from the request. A missing
 * header is a 422 in the validation shape, as the original service answered.
 */
export interface AuthDeps {
  keys: KeysService;
  /** Receives `key.touch` after each authenticated request. */
  jobs: JobEnqueuer<typeof touchKeyJob>;
  logger: Logger;
  clock?: () => Date;
}

/**
 * `optional`: for operations the interface declares without a header (the PDF tools).
 * No header lets the request through anonymously; a header that names no valid key is
 * still 401, so a client with a wrong key learns it.
 */
export function authenticate(deps: AuthDeps, options: { superadmin?: boolean; optional?: boolean } = {}): RequestHandler {
  const { keys } = deps;
  const clock = deps.clock ?? (() => new Date());
  return async (req, res, next) => {
    const header = req.get('authorization');
    if (header === undefined) {
      if (options.optional) {
        res.locals.principal = 'anonymous';
        return next();
      }
      throw new ValidationError([{ loc: ['header', 'authorization'], msg: 'Field required', type: 'missing' }]);
    }
    const presented = parseAuthorizationHeader(header);
    const result = presented ? await keys.check(presented) : ({ ok: false, reason: 'unknown' } as const);
    if (!result.ok) {
      if (result.reason === 'expired') {
        const replaced = result.key.replacedBy ? '; it was replaced by a rotation, use its replacement' : '';
        throw new UnauthorizedError(`This API key expired at ${result.key.expiresAt?.toISOString()}${replaced}`, 'INVALID_API_KEY');
      }
      throw new UnauthorizedError('Invalid or revoked API key', 'INVALID_API_KEY');
    }
    const record = result.key;
    if (options.superadmin && record.role !== 'superadmin') {
      throw new ForbiddenError('This endpoint needs a superadmin key', 'SUPERADMIN_REQUIRED');
    }
    res.locals.esign = { keyId: record.id, tenantId: record.tenantId, tenant: record.tenant, role: record.role };
    res.locals.principal = `tenant:${record.tenant}`;
    // Off the request path: a failure to record "last used" never fails the request.
    const now = clock();
    if (keys.touchDue(record, now)) {
      deps.jobs
        .enqueue('key.touch', { keyId: record.id, usedAt: now.toISOString() })
        .catch((err: unknown) => deps.logger.warn({ err, keyId: record.id }, 'could not enqueue key.touch'));
    }
    next();
  };
}

/** The principal of a route with optional authentication, if a key was sent. */
export function optionalPrincipalOf(locals: { esign?: EsignPrincipal }): EsignPrincipal | undefined {
  return locals.esign;
}

export function principalOf(locals: { esign?: EsignPrincipal }): EsignPrincipal {
  if (!locals.esign) throw new Error('authenticate() middleware missing on this route');
  return locals.esign;
}
