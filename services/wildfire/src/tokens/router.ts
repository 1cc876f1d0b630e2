import express, { type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@platform/service-kit';
import { errorResponse } from '../openapi';
import { principalOf, requireToken, type TokenAuth } from './authenticate';
import { MeSchema, type MeResponse } from './schemas';

export function tokensRouter(registry: OpenAPIRegistry, auth: TokenAuth): Router {
  const router = express.Router();
  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v1/me',
    summary: 'The calling token and its account',
    description: 'What the presented token may do: account, type, scopes and limits. Needs no scope. Never returns the secret.',
    tags: ['account'],
    security: [{ BearerToken: [] }],
    before: [requireToken(auth, { scopes: [] })],
    responses: {
      200: { description: 'The token', content: { 'application/json': { schema: MeSchema } } },
      401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
      403: errorResponse('IP_NOT_ALLOWED'),
    },
    handler: (_input, _req, res): MeResponse => {
      const p = principalOf(res.locals);
      return {
        account: p.account,
        token: {
          id: p.tokenId,
          prefix: p.prefix,
          type: p.type,
          scopes: p.scopes as MeResponse['token']['scopes'],
          municipios: p.municipios,
          ip_allowlist: p.ipAllowlist,
          expires_at: p.expiresAt?.toISOString() ?? null,
          created_at: p.createdAt.toISOString(),
        },
      };
    },
  });
  return router;
}
