import express, { type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, RATE_LIMIT_HEADERS, rateLimitedResponses } from '../openapi';
import { rateLimit, type RouteAuth } from '../rate-limits/middleware';
import { principalOf, requireToken } from '../tokens/authenticate';
import type { Framing } from './compose';
import { ZFramingQuerySchema, ZFramingResponseSchema } from './schemas';
import type { FramingService } from './service';

export function framingRouter(registry: OpenAPIRegistry, auth: RouteAuth, framing: FramingService): Router {
  const router = express.Router();
  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v1/framing',
    operationId: 'getFraming',
    summary: 'Narrative risk analysis for institutional communication',
    description:
      'The day’s danger told for an audience from written templates (no model, no network): the same inputs give the same text, and every number in it ' +
      'equals a field of the answer. Texts in Spanish, Catalan, Galician, Basque and English (`lang`). Needs the `reports:read` scope.',
    tags: ['reports'],
    security: [{ BearerToken: ['reports:read'] }],
    before: [requireToken(auth, { scopes: ['reports:read'] }), rateLimit(auth.limits, 'data')],
    query: ZFramingQuerySchema,
    responses: {
      200: { description: 'The narrative of the day', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: ZFramingResponseSchema } } },
      400: errorResponse('MISSING_REQUIRED_PARAM (municipio_id absent) or INVALID_PARAM_FORMAT (municipio_id, date, audience or lang malformed)'),
      401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs reports:read, or municipio_id is outside the token’s municipality list), or IP_NOT_ALLOWED'),
      404: errorResponse('MUNICIPALITY_NOT_FOUND, or READING_NOT_FOUND (live tokens: nothing stored, or nothing for that date)'),
      422: errorResponse('DATE_OUT_OF_RANGE (date before 2015-01-01 or after today)'),
      ...rateLimitedResponses('data'),
    },
    handler: async ({ query }, _req, res): Promise<Framing> => {
      const { municipio_id, ...rest } = query;
      return framing.frame(principalOf(res.locals), municipio_id, rest);
    },
  });
  return router;
}
