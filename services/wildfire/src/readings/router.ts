import express, { type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { sendJsonWithEtag } from '../conditional-json';
import { errorResponse, ETAG_HEADERS, NOT_MODIFIED_RESPONSE, RATE_LIMIT_HEADERS, rateLimitedResponses } from '../openapi';
import { rateLimit, type RouteAuth } from '../rate-limits/middleware';
import { principalOf, requireToken } from '../tokens/authenticate';
import { readingBody } from './records';
import { ZM1QuerySchema, ZM1ResponseSchema, type TReadingRange, type TReading } from './schemas';
import type { ReadingsService } from './service';


export function readingsRouter(registry: OpenAPIRegistry, auth: RouteAuth, readings: ReadingsService): Router {
  const router = express.Router();
  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v3/m1',
    operationId: 'getRisk',
    summary: 'Daily fire risk of a municipality',
    description:
      'Without dates: the latest reading (test tokens: today in Spain). With `date_from` and/or `date_to`: `{municipio_id, date_from, date_to, data}` ' +
      'with the readings of the range in date order. Needs the `risk:read` scope. Live tokens read loaded data; test tokens read deterministic synthetic data. ' +
      'Strong ETag; a request whose If-None-Match names it answers 304 (counted against the limits as a 200).',
    tags: ['risk'],
    security: [{ BearerToken: ['risk:read'] }],
    before: [requireToken(auth, { scopes: ['risk:read'] }), rateLimit(auth.limits, 'data')],
    query: ZM1QuerySchema,
    responses: {
      200: {
        description: 'The latest reading (no dates), or the readings of the range',
        headers: { ...RATE_LIMIT_HEADERS, ...ETAG_HEADERS },
        content: { 'application/json': { schema: ZM1ResponseSchema } },
      },
      ...NOT_MODIFIED_RESPONSE,
      400: errorResponse('MISSING_REQUIRED_PARAM (municipio_id absent) or INVALID_PARAM_FORMAT (municipio_id not 5 digits, a date not YYYY-MM-DD or not a real day)'),
      401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
      403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read, or municipio_id is outside the token’s municipality list), or IP_NOT_ALLOWED'),
      404: errorResponse('MUNICIPALITY_NOT_FOUND (no municipality has this code), or READING_NOT_FOUND (latest reading asked, none stored yet)'),
      422: errorResponse(
        'DATE_OUT_OF_RANGE (a date before 2015-01-01 or after today), INVALID_DATE_RANGE (date_from after date_to), DATE_RANGE_TOO_LARGE (more than 366 days)',
      ),
      ...rateLimitedResponses('data'),
    },
    handler: async ({ query }, _req, res): Promise<undefined> => {
      const caller = principalOf(res.locals);
      const id = query.municipio_id;
      if (query.date_from === undefined && query.date_to === undefined) {
        const { reading, source, provenance } = await readings.latest(caller, id);
        return sendJsonWithEtag(res, readingBody(id, reading, source, provenance) satisfies TReading);
      }
      const { range, readings: days, source, provenance } = await readings.range(caller, id, query);
      const body: TReadingRange = { municipio_id: id, date_from: range.from, date_to: range.to, data: days.map((r) => readingBody(id, r, source, provenance.get(r.date))) };
      return sendJsonWithEtag(res, body);
    },
  });
  return router;
}
