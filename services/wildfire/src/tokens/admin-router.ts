import express, { type Router } from 'express';
import { z } from 'zod';
import { ValidationError } from '@firma-riesgo/errors';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { NotFoundError } from '../errors';
import { errorResponse } from '../openapi';
import type { RouteAuth } from '../rate-limits/middleware';
import type { TokenActor, TokenAdministration } from './administration';
import { ZCreateTokenSchema, ZIssuedTokenSchema, ZRotatedTokenSchema, ZRotateTokenSchema, ZTokenListingSchema, ZTokenParamsSchema, ZTokensQuerySchema } from './admin-schemas';
import { principalOf, requireToken } from './authenticate';
import type { TokenRecord } from './repository';
import { ADMIN_TOKENS_SCOPE, TokenInputError } from './service';

const TAGS = ['operator'];
const SECURITY = [{ BearerToken: [] }];
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const ACCESS = {
  401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY (unknown, revoked or expired token)'),
  403: errorResponse(`INSUFFICIENT_SCOPE (the token lacks ${ADMIN_TOKENS_SCOPE}) or IP_NOT_ALLOWED`),
};
const NOT_FOUND = errorResponse('TOKEN_NOT_FOUND: no active token with this id');
/** The request's names for the fields a TokenInputError names. */
const FIELD: Record<TokenInputError['field'], string> = {
  account: 'account',
  type: 'type',
  scopes: 'scopes',
  municipios: 'municipios',
  ip_allowlist: 'allowed_ips',
  expires_at: 'expires_at',
  monthly_quota: 'monthly_quota',
  grace: 'overlap_hours',
};
const HOUR_MS = 3_600_000;

const iso = (d: Date | null) => d?.toISOString() ?? null;
const fields = (t: TokenRecord) => ({
  token_id: t.id,
  prefix: t.prefix,
  type: t.type,
  account: t.account,
  scopes: t.scopes,
  municipios: t.municipios,
  allowed_ips: t.ipAllowlist,
  expires_at: iso(t.expiresAt),
  created_at: t.createdAt.toISOString(),
});

/** TokenInputError answers 400 INVALID_PARAM_FORMAT naming the request's field. */
async function asInput<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof TokenInputError) throw ValidationError.single('body', FIELD[err.field], err.message);
    throw err;
  }
}

/**
 * The operator API (interface §5.2 and §5.5 without a shell): tokens holding `admin:tokens`,
 * which only the CLI grants, create, list, revoke and rotate tokens. Every change goes to the
 * admin log with the acting token; revocation and rotation reach every instance within a second.
 */
export function adminTokensRouter(registry: OpenAPIRegistry, auth: RouteAuth, admin: TokenAdministration): Router {
  const router = express.Router();
  const before = [requireToken(auth, { scopes: [ADMIN_TOKENS_SCOPE] })];
  const clock = auth.clock ?? (() => new Date());
  const actor = (locals: Parameters<typeof principalOf>[0]): TokenActor => {
    const p = principalOf(locals);
    return { via: 'rest', tokenId: p.tokenId, account: p.account };
  };

  defineRoute(router, registry, {
    method: 'post',
    path: '/api/v1/admin/tokens',
    operationId: 'createToken',
    summary: 'Create a token',
    description: `A live or test token with one or more of the interface’s four scopes (\`${ADMIN_TOKENS_SCOPE}\` only with the CLI). The answer carries the whole token once; it is stored hashed.`,
    tags: TAGS,
    security: SECURITY,
    body: ZCreateTokenSchema,
    status: 201,
    before,
    responses: {
      201: { description: 'Created', content: json(ZIssuedTokenSchema) },
      400: errorResponse('MISSING_REQUIRED_PARAM, INVALID_PARAM_FORMAT (an unknown or operator scope, a bad INE code, CIDR or account name, an expiry not in the future; `param` names it) or INVALID_JSON'),
      ...ACCESS,
    },
    handler: async ({ body }, _req, res) => {
      const input = { account: body.account, type: body.type, scopes: body.scopes, municipios: body.municipios ?? null, ipAllowlist: body.allowed_ips ?? null, expiresAt: body.expires_at ? new Date(body.expires_at) : null };
      const { token, record } = await asInput(() => admin.create(input, actor(res.locals)));
      return { ...fields(record), token };
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v1/admin/tokens',
    operationId: 'listTokens',
    summary: 'List tokens, masked',
    description: 'Every token (revoked and expired ones included), by account then age: prefix, type, scopes, limits, expiry, last use, status. Never the secret.',
    tags: TAGS,
    security: SECURITY,
    query: ZTokensQuerySchema,
    before,
    responses: { 200: { description: 'A JSON array of tokens', content: json(z.array(ZTokenListingSchema)) }, 400: errorResponse('INVALID_PARAM_FORMAT (account too long)'), ...ACCESS },
    handler: async ({ query }) => {
      const now = clock();
      return (await admin.list(query.account)).map((t) => ({
        ...fields(t),
        status: t.revokedAt ? ('revoked' as const) : t.expiresAt && t.expiresAt.getTime() <= now.getTime() ? ('expired' as const) : ('active' as const),
        last_used_at: iso(t.lastUsedAt),
        revoked_at: iso(t.revokedAt),
        replaced_by: t.replacedBy,
      }));
    },
  });

  defineRoute(router, registry, {
    method: 'delete',
    path: '/api/v1/admin/tokens/{token_id}',
    operationId: 'revokeToken',
    summary: 'Revoke a token',
    description: 'Every instance refuses it (INVALID_API_KEY) within a second. Revoking a rotated token ends its overlap at once.',
    tags: TAGS,
    security: SECURITY,
    params: ZTokenParamsSchema,
    before,
    responses: { 204: { description: 'Revoked (no body)' }, 400: errorResponse('INVALID_PARAM_FORMAT (token_id not a UUID)'), 404: NOT_FOUND, ...ACCESS },
    handler: async ({ params }, _req, res) => {
      if (!(await admin.revoke(params.token_id, actor(res.locals)))) throw new NotFoundError(`No active token ${params.token_id}`, 'TOKEN_NOT_FOUND', { param: 'token_id' });
      res.status(204).end();
    },
  });

  defineRoute(router, registry, {
    method: 'post',
    path: '/api/v1/admin/tokens/{token_id}/rotate',
    operationId: 'rotateToken',
    summary: 'Rotate a token with an overlap',
    description:
      'Interface §5.5: the replacement (same account, type, scopes, limits and expiry; shown once) works at once, and the old token keeps working until the end of the overlap (`overlap_hours`, default 24, at most 720; never beyond its own expiry), then answers INVALID_API_KEY.',
    tags: TAGS,
    security: SECURITY,
    params: ZTokenParamsSchema,
    body: ZRotateTokenSchema,
    bodyRequired: false,
    status: 201,
    before,
    responses: {
      201: { description: 'The replacement', content: json(ZRotatedTokenSchema) },
      400: errorResponse('INVALID_PARAM_FORMAT (token_id not a UUID, overlap_hours outside 0–720)'),
      401: ACCESS[401],
      403: errorResponse(`INSUFFICIENT_SCOPE, IP_NOT_ALLOWED, or CLI_ONLY (the token holds ${ADMIN_TOKENS_SCOPE})`),
      404: NOT_FOUND,
      409: errorResponse('ALREADY_ROTATED: rotate its replacement'),
    },
    handler: async ({ params, body }, _req, res) => {
      const graceMs = body.overlap_hours === undefined ? undefined : body.overlap_hours * HOUR_MS;
      const rotated = await asInput(() => admin.rotate(params.token_id, graceMs, actor(res.locals)));
      if (!rotated) throw new NotFoundError(`No active token ${params.token_id}`, 'TOKEN_NOT_FOUND', { param: 'token_id' });
      return { ...fields(rotated.record), token: rotated.token, replaces: rotated.old.id, replaced_expires_at: rotated.old.expiresAt!.toISOString() };
    },
  });

  return router;
}
