import express, { type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, RATE_LIMIT_HEADERS, rateLimitedResponses } from '../openapi';
import { rateLimit, type RouteAuth } from '../rate-limits/middleware';
import { principalOf, requireToken } from '../tokens/authenticate';
import { ZForecastQuerySchema, ZForecastResponseSchema, type TForecastResponse } from './schemas';
import type { ForecastService } from './service';

export function forecastRouter(registry: OpenAPIRegistry, auth: RouteAuth, forecast: ForecastService): Router {
  const router = express.Router();
  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v3/m1/forecast',
    operationId: 'getRiskForecast',
    summary: 'Fire risk of a municipality for the next six days',
    description:
      'Days D+1 to D+6 of the latest AEMET municipal forecast, with the FWI chained from the last observed codes (live tokens), or the synthetic ' +
      'model’s next six days (test tokens). Needs the `risk:read` scope; the same limits as m1. m1 itself keeps refusing future dates.',
    tags: ['risk'],
    security: [{ BearerToken: ['risk:read'] }],
    before: [requireToken(auth, { scopes: ['risk:read'] }), rateLimit(auth.limits, 'data')],
    query: ZForecastQuerySchema,
    responses: {
      200: { description: 'The forecast days', headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema: ZForecastResponseSchema } } },
      400: errorResponse('MISSING_REQUIRED_PARAM (municipio_id absent) or INVALID_PARAM_FORMAT (municipio_id not 5 digits)'),
      401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read, or municipio_id is outside the token’s municipality list), or IP_NOT_ALLOWED'),
      404: errorResponse('MUNICIPALITY_NOT_FOUND (no municipality has this code), or FORECAST_NOT_AVAILABLE (live tokens: no forecast stored for it)'),
      ...rateLimitedResponses('data'),
    },
    handler: async ({ query }, _req, res): Promise<TForecastResponse> => forecast.forecast(principalOf(res.locals), query.municipio_id),
  });
  return router;
}
