import express, { type Router } from 'express';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { sendJsonWithEtag } from '../conditional-json';
import { errorResponse, ETAG_HEADERS, NOT_MODIFIED_RESPONSE, RATE_LIMIT_HEADERS, rateLimitedResponses } from '../openapi';
import { rateLimit, type RouteAuth } from '../rate-limits/middleware';
import { principalOf, requireToken } from '../tokens/authenticate';
import { fuelModelInfo, vegetationTypeInfo } from './classes';
import { ZEcosystemDetailSchema, ZEcosystemQuerySchema, ZEcosystemSchema, type TEcosystemDetail, type TEcosystem } from './schemas';
import type { EcosystemProfile, EcosystemService } from './service';

export function ecosystemBody(p: EcosystemProfile): TEcosystem {
  return {
    municipio_id: p.municipioId,
    vegetation_type: p.vegetationType,
    fuel_model: p.fuelModel,
    fuel_load_t_ha: p.fuelLoadTHa,
    fuel_moisture_index: p.fuelMoisture?.index ?? null,
    forest_cover_pct: p.forestCoverPct,
    source: p.source,
  };
}

export function ecosystemDetailBody(p: EcosystemProfile): TEcosystemDetail {
  const fmi = p.fuelMoisture;
  return {
    ...ecosystemBody(p),
    municipality: p.municipality,
    vegetation_type_name: vegetationTypeInfo(p.vegetationType)!.name,
    fuel_model_name: p.fuelModel === null ? null : fuelModelInfo(p.fuelModel)!.name,
    fmi_weather: fmi && { date: fmi.date, temp: fmi.temp, rh: fmi.rh },
    updated_at: p.updatedAt?.toISOString() ?? null,
  };
}

const ERRORS = {
  400: errorResponse('MISSING_REQUIRED_PARAM (municipio_id absent) or INVALID_PARAM_FORMAT (municipio_id not exactly 5 digits, or repeated)'),
  401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
  403: errorResponse('INSUFFICIENT_SCOPE (needs ecosystem:read, or municipio_id is outside the token’s municipality list), or IP_NOT_ALLOWED'),
  404: errorResponse('MUNICIPALITY_NOT_FOUND (no municipality has this code), or ECOSYSTEM_NOT_FOUND (live token: no ecosystem data is loaded for the municipality yet)'),
  ...rateLimitedResponses('data'),
};

const SOURCES =
  'Live tokens read the data loaded with `wildfire ingest ecosystem` and the fuel moisture index of the latest stored reading; ' +
  'test tokens read a deterministic synthetic ecosystem (by province climate and municipality) and the fuel moisture index of today’s synthetic weather.';

/**
 * `GET /api/v3/m10` and `GET /ecosystem`: one resource, one service call. m10 answers
 * the compact field set of the v3 API; /ecosystem adds what the codes mean, the
 * municipality, the weather behind the fuel moisture index and when the data changed.
 */
export function ecosystemRouter(registry: OpenAPIRegistry, auth: RouteAuth, ecosystem: EcosystemService): Router {
  const router = express.Router();
  // Both paths are data endpoints: one scope, one per-minute budget shared with m1.
  const before = [requireToken(auth, { scopes: ['ecosystem:read'] }), rateLimit(auth.limits, 'data')];
  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v3/m10',
    operationId: 'getEcosystem',
    summary: 'Ecosystem of a municipality',
    description:
      'Vegetation type, fuel model, fuel load, fuel moisture index and forest cover of a municipality. Needs the `ecosystem:read` scope. ' +
      `${SOURCES} \`GET /ecosystem\` answers the same fields plus their names and provenance. ` +
      'Strong ETag; a request whose If-None-Match names it answers 304 (counted against the limits as a 200).',
    tags: ['ecosystem'],
    security: [{ BearerToken: ['ecosystem:read'] }],
    before,
    query: ZEcosystemQuerySchema,
    responses: {
      200: { description: 'The ecosystem of the municipality', headers: { ...RATE_LIMIT_HEADERS, ...ETAG_HEADERS }, content: { 'application/json': { schema: ZEcosystemSchema } } },
      ...NOT_MODIFIED_RESPONSE,
      ...ERRORS,
    },
    handler: async ({ query }, _req, res): Promise<undefined> =>
      sendJsonWithEtag(res, ecosystemBody(await ecosystem.profile(principalOf(res.locals), query.municipio_id)) satisfies TEcosystem),
  });
  defineRoute(router, registry, {
    method: 'get',
    path: '/ecosystem',
    operationId: 'getEcosystemDetail',
    summary: 'Ecosystem of a municipality, with names and provenance',
    description:
      'The fields of `GET /api/v3/m10` (same values for the same request) plus the municipality’s names, the names of the vegetation type and fuel model, ' +
      `the weather the fuel moisture index comes from and when the stored data last changed. Needs the \`ecosystem:read\` scope. ${SOURCES}`,
    tags: ['ecosystem'],
    security: [{ BearerToken: ['ecosystem:read'] }],
    before,
    query: ZEcosystemQuerySchema,
    responses: {
      200: {
        description: 'The ecosystem of the municipality with its metadata',
        headers: RATE_LIMIT_HEADERS,
        content: { 'application/json': { schema: ZEcosystemDetailSchema } },
      },
      ...ERRORS,
    },
    handler: async ({ query }, _req, res): Promise<TEcosystemDetail> =>
      ecosystemDetailBody(await ecosystem.profile(principalOf(res.locals), query.municipio_id)),
  });
  return router;
}
