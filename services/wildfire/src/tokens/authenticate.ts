import type { RequestHandler } from 'express';
import { missingScopes, parseCidrList } from '@firma-riesgo/auth';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { JobEnqueuer } from '@firma-riesgo/service-kit';
import type { touchTokenJob } from './jobs';
import type { TokenRecord } from './repository';
import type { GrantableScope, TokensService } from './service';

/** What a route learns about the caller: the token record without its lifecycle columns. */
export type WildfirePrincipal = { tokenId: string } & Pick<
  TokenRecord,
  'accountId' | 'account' | 'monthlyQuota' | 'type' | 'prefix' | 'scopes' | 'municipios' | 'ipAllowlist' | 'expiresAt' | 'createdAt'
>;

declare module 'express-serve-static-core' {
  interface Locals {
    wildfire?: WildfirePrincipal;
    principal?: string;
  }
}

export interface TokenAuth {
  tokens: TokensService;
  /** Receives `token.touch` after each authenticated request. */
  jobs: JobEnqueuer<typeof touchTokenJob>;
  logger: { warn(obj: object, msg?: string): void };
  clock?: () => Date;
}

/** Query parameters clients habitually put credentials in; their presence alone is refused. */
export const QUERY_TOKEN_PARAMS = ['token', 'api_key', 'access_token', 'key'] as const;

const REALM = 'Bearer realm="wildfire"';
const USE_HEADER = 'send it in the header "Authorization: Bearer <token>"';

/** The token of `Bearer <token>` (scheme in any case); null for any other shape, a bare token included. */
function bearerToken(header: string): string | null {
  return /^Bearer[ \t]+(\S+)$/i.exec(header.trim())?.[1] ?? null;
}

/**
 * Admits requests carrying a valid `Authorization: Bearer pk_...` token that holds
 * every scope in `options.scopes` and, when the token has an IP allowlist, comes from
 * an allowed address. The account always comes from the token, never from the
 * request. An admitted request enqueues `token.touch` when the token's last use is a
 * minute old (once a minute per token and instance), so `last_used_at` is written off
 * the request path; a failure to enqueue is logged and never fails the request.
 */
export function requireToken(auth: TokenAuth, options: { scopes: readonly GrantableScope[] }): RequestHandler {
  const clock = auth.clock ?? (() => new Date());
  return async (req, res, next) => {
    const inQuery = Object.keys(req.query).find((name) => (QUERY_TOKEN_PARAMS as readonly string[]).includes(name.toLowerCase()));
    if (inQuery !== undefined) {
      // Refused even beside a valid header: URLs end up in logs, histories and Referer headers.
      throw new UnauthorizedError(`API tokens are not accepted in the query string ("${inQuery}"); ${USE_HEADER}`, 'MISSING_AUTH_HEADER', {
        param: inQuery,
        headers: { 'WWW-Authenticate': `${REALM}, error="invalid_request"` },
      });
    }
    const header = req.get('authorization');
    if (header === undefined || header.trim() === '') {
      throw new UnauthorizedError(`Missing Authorization header; ${USE_HEADER}`, 'MISSING_AUTH_HEADER', { headers: { 'WWW-Authenticate': REALM } });
    }
    const invalid = (message: string) =>
      new UnauthorizedError(message, 'INVALID_API_KEY', { headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` } });
    const presented = bearerToken(header);
    if (presented === null) throw invalid(`The Authorization header must use the Bearer scheme: "Authorization: Bearer <token>"`);

    const result = await auth.tokens.authenticate(presented);
    if (!result.ok) {
      if (result.reason === 'revoked') throw invalid('This API token has been revoked');
      if (result.reason === 'expired') throw invalid(`This API token expired at ${result.token.expiresAt?.toISOString()}`);
      if (result.reason === 'rotated') {
        throw invalid(`This API token was replaced by a rotation; its grace period ended at ${result.token.expiresAt?.toISOString()}. Use its replacement`);
      }
      throw invalid('Invalid API token');
    }
    const { token } = result;
    if (token.ipAllowlist && !parseCidrList(token.ipAllowlist).contains(req.ip ?? '')) {
      throw new ForbiddenError(`This token may not be used from ${req.ip ?? 'an unknown address'}`, 'IP_NOT_ALLOWED');
    }
    const missing = missingScopes(token.scopes, options.scopes);
    if (missing.length > 0) {
      throw new ForbiddenError(`This token lacks the scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')} required here`, 'INSUFFICIENT_SCOPE', {
        headers: { 'WWW-Authenticate': `${REALM}, error="insufficient_scope", scope="${missing.join(' ')}"` },
      });
    }

    res.locals.wildfire = {
      tokenId: token.id,
      accountId: token.accountId,
      account: token.account,
      monthlyQuota: token.monthlyQuota,
      type: token.type,
      prefix: token.prefix,
      scopes: token.scopes,
      municipios: token.municipios,
      ipAllowlist: token.ipAllowlist,
      expiresAt: token.expiresAt,
      createdAt: token.createdAt,
    };
    res.locals.principal = `account:${token.account}`;
    const now = clock();
    if (auth.tokens.touchDue(token, now)) {
      Promise.resolve()
        .then(() => auth.jobs.enqueue('token.touch', { tokenId: token.id, usedAt: now.toISOString() }))
        .catch((err: unknown) => auth.logger.warn({ err, tokenId: token.id }, 'could not enqueue token.touch'));
    }
    next();
  };
}

export function principalOf(locals: { wildfire?: WildfirePrincipal }): WildfirePrincipal {
  if (!locals.wildfire) throw new Error('requireToken() middleware missing on this route');
  return locals.wildfire;
}
