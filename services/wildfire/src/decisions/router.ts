import express, { type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, RATE_LIMIT_HEADERS, rateLimitedResponses } from '../openapi';
import { rateLimit, type RouteAuth } from '../rate-limits/middleware';
import { principalOf, requireToken } from '../tokens/authenticate';
import { ZDecisionsQuerySchema, ZDecisionsResponseSchema, type TDecisionsResponse } from './schemas';
import type { DecisionsService } from './service';

export function decisionsRouter(registry: OpenAPIRegistry, auth: RouteAuth, decisions: DecisionsService): Router {
  const router = express.Router();
  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v3/decisiones',
    operationId: 'listDecisions',
    summary: 'Territorial decision history of a municipality',
    description:
      'Decisions (bans, épocas de peligro, alerts, closures, authorizations) of the municipality, its province, its autonomous community and the whole country, ' +
      'newest first, paginated: those loaded by the operator with `wildfire ingest decisions` and the automatic alerts the service derives from runs of very_high or extreme days (FWI ≥ 38; test tokens: from the synthetic series). Needs the `risk:read` scope.',
    tags: ['risk'],
    security: [{ BearerToken: ['risk:read'] }],
    before: [requireToken(auth, { scopes: ['risk:read'] }), rateLimit(auth.limits, 'data')],
    query: ZDecisionsQuerySchema,
    responses: {
      200: { description: 'A page of decisions and the total', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: ZDecisionsResponseSchema } } },
      400: errorResponse('MISSING_REQUIRED_PARAM (municipio_id absent) or INVALID_PARAM_FORMAT (municipio_id not 5 digits, a malformed date, limit outside 1–200, offset negative)'),
      401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read, or municipio_id is outside the token’s municipality list), or IP_NOT_ALLOWED'),
      404: errorResponse('MUNICIPALITY_NOT_FOUND'),
      422: errorResponse('DATE_OUT_OF_RANGE (a date before 2015-01-01 or after today), INVALID_DATE_RANGE (date_from after date_to)'),
      ...rateLimitedResponses('data'),
    },
    handler: async ({ query }, _req, res): Promise<TDecisionsResponse> => {
      const { municipio_id, ...filters } = query;
      return decisions.history(principalOf(res.locals), municipio_id, filters);
    },
  });
  return router;
}
