import express, { type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse } from '../openapi';
import type { RouteAuth } from '../rate-limits/middleware';
import { RATE_LIMIT_WINDOW_SECONDS } from '../rate-limits/service';
import { principalOf, requireToken } from './authenticate';
import { ZMeSchema, type TMe } from './schemas';
import { ADMIN_TOKENS_SCOPE, TOKEN_SCOPES } from './service';

export function tokensRouter(registry: OpenAPIRegistry, auth: RouteAuth): Router {
  const router = express.Router();
  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v1/me',
    operationId: 'getMe',
    summary: 'The calling token and its account',
    description:
      'What the presented token may do: account, type, scopes, municipality and IP restrictions, expiry, its current rate-limit windows and, ' +
      'for live tokens, the account’s usage this month. Needs no scope, is not rate-limited and does not count. Never returns the secret.',
    tags: ['account'],
    security: [{ BearerToken: [] }],
    before: [requireToken(auth, { scopes: [] })],
    responses: {
      200: { description: 'The token', content: { 'application/json': { schema: ZMeSchema } } },
      401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
      403: errorResponse('IP_NOT_ALLOWED'),
      503: errorResponse('SERVICE_UNAVAILABLE: the rate-limit store (Redis) cannot be reached'),
    },
    handler: async (_input, _req, res): Promise<TMe> => {
      const p = principalOf(res.locals);
      const [windows, usage] = await Promise.all([auth.limits.windows(p), auth.limits.usage(p)]);
      const window = (w: NonNullable<typeof windows>['data']) => ({ limit: w.limit, remaining: w.remaining, reset: w.resetAt, window_seconds: RATE_LIMIT_WINDOW_SECONDS });
      return {
        account: p.account,
        token: {
          id: p.tokenId,
          prefix: p.prefix,
          type: p.type,
          scopes: p.scopes.filter((s): s is TMe['token']['scopes'][number] => (TOKEN_SCOPES as readonly string[]).includes(s)),
          operator_scopes: p.scopes.filter((s): s is typeof ADMIN_TOKENS_SCOPE => s === ADMIN_TOKENS_SCOPE),
          municipios: p.municipios,
          ip_allowlist: p.ipAllowlist,
          expires_at: p.expiresAt?.toISOString() ?? null,
          created_at: p.createdAt.toISOString(),
        },
        rate_limits: windows && { data: window(windows.data), reports: window(windows.reports), territory: window(windows.territory) },
        usage: usage && { ...usage, remaining: usage.quota === null ? null : Math.max(0, usage.quota - usage.requests) },
      };
    },
  });
  return router;
}
