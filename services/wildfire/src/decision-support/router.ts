import express, { type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { sendJsonWithEtag } from '../conditional-json';
import { errorResponse, ETAG_HEADERS, NOT_MODIFIED_RESPONSE, RATE_LIMIT_HEADERS, rateLimitedResponses } from '../openapi';
import { rateLimit, type RouteAuth } from '../rate-limits/middleware';
import { principalOf, requireToken } from '../tokens/authenticate';
import { m3Record } from './records';
import { ZM3QuerySchema, ZM3ResponseSchema, type TM3Response } from './schemas';
import type { DecisionSupportService } from './service';

export function decisionSupportRouter(registry: OpenAPIRegistry, auth: RouteAuth, support: DecisionSupportService): Router {
  const router = express.Router();
  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v3/m3',
    operationId: 'getDecisionSupport',
    summary: 'Preventive decision support for a municipality and day',
    description:
      'The day’s FWI and risk (as m1) with its EFFIS danger class, AEMET level, percentile against the municipality’s own history (±15 days, every year), ' +
      '3-day trend, the measures of its class (the six bans of Ley 43/2003 art. 48.6 on very_high and extreme days) and recommended actions, with sources. ' +
      'Needs the `risk:read` scope. Live tokens read loaded data; test tokens the synthetic series. ' +
      'Strong ETag; a request whose If-None-Match names it answers 304 (counted against the limits as a 200).',
    tags: ['risk'],
    security: [{ BearerToken: ['risk:read'] }],
    before: [requireToken(auth, { scopes: ['risk:read'] }), rateLimit(auth.limits, 'data')],
    query: ZM3QuerySchema,
    responses: {
      200: { description: 'The decision support of the day', headers: { ...RATE_LIMIT_HEADERS, ...ETAG_HEADERS }, content: { 'application/json': { schema: ZM3ResponseSchema } } },
      ...NOT_MODIFIED_RESPONSE,
      400: errorResponse('MISSING_REQUIRED_PARAM (municipio_id absent) or INVALID_PARAM_FORMAT (municipio_id not 5 digits, date not YYYY-MM-DD or not a real day)'),
      401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read, or municipio_id is outside the token’s municipality list), or IP_NOT_ALLOWED'),
      404: errorResponse('MUNICIPALITY_NOT_FOUND, or READING_NOT_FOUND (live tokens: nothing stored yet, or nothing stored for that date)'),
      422: errorResponse('DATE_OUT_OF_RANGE (date before 2015-01-01 or after today)'),
      ...rateLimitedResponses('data'),
    },
    handler: async ({ query }, _req, res): Promise<undefined> => {
      const caller = principalOf(res.locals);
      const assessment = await support.assess(caller, query.municipio_id, query);
      return sendJsonWithEtag(res, m3Record(assessment, await support.forecastAfter(caller, query.municipio_id, assessment.date)) satisfies TM3Response);
    },
  });
  return router;
}
