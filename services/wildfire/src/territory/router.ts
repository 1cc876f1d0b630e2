import { randomBytes } from 'node:crypto';
import express, { type Request, type Router } from 'express';
import { z } from 'zod';
import { defineRoute, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { errorResponse, RATE_LIMIT_HEADERS } from '../openapi';
import { alsoRateLimit, rateLimit, type RouteAuth } from '../rate-limits/middleware';
import { principalOf, requireToken } from '../tokens/authenticate';
import { createSharedAnswers, secondsToNextIngestion, sendCached } from './cached-answer';
import { summaryCsv, territoryCsv, territoryGeoJson, territoryJson } from './formats';
import { renderMapPage } from './map-page';
import { territoryMapSvg } from './map-svg';
import { todayInSpain } from '../calendar';
import { ZSummaryQuerySchema, ZSummarySchema, ZTerritoryQuerySchema, ZTerritorySchema } from './schemas';
import type { TerritoryService } from './service';

const text = { type: 'string' as const };
/** Whole-area representations kept per instance (area and media type of a day's version; compressed, about 0.1–0.5 MB each for all of Spain). */
const SHARED_ANSWERS_KEPT = 32;
const header = (description: string) => ({ description, schema: text });

/** Headers of every whole-area answer (200 and 304). */
const CACHE_HEADERS = {
  ETag: header('Strong validator of the representation (it differs per media type and content coding); send it back in If-None-Match.'),
  'Last-Modified': header('When the day’s readings were last loaded (test tokens: noon of the day).'),
  'Cache-Control': header('`private, max-age=N`: N seconds until the next expected ingestion (WILDFIRE_INGESTION_CRON).'),
  Vary: header('Accept, Accept-Encoding, Authorization.'),
};

const notModified = { description: 'Not Modified: the If-None-Match (or If-Modified-Since) of the request matches; no body.', headers: CACHE_HEADERS };

const AREA_ERRORS = {
  400: errorResponse(
    'INVALID_PARAM_FORMAT: date not YYYY-MM-DD or not a real day, province not an INE province code (01–52), community not an INE community code (01–19), both province and community given, or level not province/community (`param` names it)',
  ),
  401: errorResponse('MISSING_AUTH_HEADER or INVALID_API_KEY'),
  403: errorResponse('INSUFFICIENT_SCOPE (needs risk:read), or IP_NOT_ALLOWED'),
  422: errorResponse('DATE_OUT_OF_RANGE (date before 2015-01-01 or after today)'),
  429: {
    ...errorResponse(
      'RATE_LIMIT_EXCEEDED (the whole-area budget, WILDFIRE_RATE_LIMIT_TERRITORY per minute (10), or the data endpoints’ budget (100) is spent; live tokens only) or QUOTA_EXCEEDED (the account’s monthly quota is spent)',
    ),
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' as const } }, ...RATE_LIMIT_HEADERS },
  },
  503: errorResponse('SERVICE_UNAVAILABLE: the rate-limit store (Redis) or the database cannot be reached; the request was not served'),
};

const LIMITS_TEXT =
  'Needs the `risk:read` scope. A live token’s request counts as one request of the data endpoints’ budget (100 per minute) and of the account’s month, ' +
  'and also takes one of the whole-area budget (WILDFIRE_RATE_LIMIT_TERRITORY, 10 per minute), shared with the other whole-area read. ' +
  'Compressed with brotli or gzip as Accept-Encoding prefers; strong ETag and Last-Modified, a conditional GET answers 304; `Cache-Control: private, max-age` until the next expected ingestion.';

type Territory = Awaited<ReturnType<TerritoryService['territory']>>;

/** The four representations of the territory, chosen by Accept (JSON when it names none of them). `json`: each row serialised once, for the ETag and the JSON body. */
const TERRITORY_TYPES = {
  'application/json': { contentType: 'application/json; charset=utf-8', body: (_t: Territory, json: readonly string[]) => territoryJson(json) },
  'application/geo+json': { contentType: 'application/geo+json; charset=utf-8', body: (t: Territory) => territoryGeoJson(t.rows) },
  'text/csv': { contentType: 'text/csv; charset=utf-8; header=present', body: (t: Territory) => territoryCsv(t.rows) },
  'image/svg+xml': { contentType: 'image/svg+xml; charset=utf-8', body: (t: Territory) => territoryMapSvg(t.rows, t) },
} as const;
type TerritoryType = keyof typeof TERRITORY_TYPES;

function negotiate<T extends string>(req: Request, types: readonly T[]): T {
  const chosen = req.accepts([...types]);
  return chosen === false ? types[0]! : (chosen as T);
}

export function territoryRouter(registry: OpenAPIRegistry, auth: RouteAuth, territory: TerritoryService, config: { ingestionCron: string; clock: () => Date }): Router {
  const router = express.Router();
  const before = [requireToken(auth, { scopes: ['risk:read'] }), alsoRateLimit(auth.limits, 'territory'), rateLimit(auth.limits, 'data')];
  const maxAge = () => secondsToNextIngestion(config.ingestionCron, config.clock());
  // Whole-area answers every live token without a municipality list gets alike: tag and compressed bytes made once per version.
  const sharedAnswers = createSharedAnswers(SHARED_ANSWERS_KEPT);

  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v3/m1/territorio',
    operationId: 'getTerritory',
    summary: 'Every municipality’s reading of one day: a province, a community or all of Spain',
    description:
      'The m1 reading of every municipality of the area on the day (`province` or `community`; neither: all of Spain), each with its municipality, province and ' +
      'community names and codes, its EFFIS `danger_class` and its coordinates. Only the municipalities the token may read: a token with a municipality list ' +
      'gets those of the area. Live tokens: the stored readings (a municipality without one that day is absent); test tokens: the synthetic readings m1 answers. ' +
      'By Accept: `application/json` (default; an array), `application/geo+json` (an RFC 7946 FeatureCollection of Points at [lon, lat]; null geometry for a ' +
      'municipality without coordinates), `text/csv` (a header line, then one line per municipality) or `image/svg+xml` (a map: points in EFFIS class colours, ' +
      'province outlines, legend, title with the date). ' +
      LIMITS_TEXT,
    tags: ['risk'],
    security: [{ BearerToken: ['risk:read'] }],
    before,
    query: ZTerritoryQuerySchema,
    responses: {
      200: {
        description: 'The readings of the area, in INE code order, in the media type asked for',
        headers: { ...RATE_LIMIT_HEADERS, ...CACHE_HEADERS, 'Content-Encoding': header('br or gzip when Accept-Encoding allows it.') },
        content: {
          'application/json': { schema: ZTerritorySchema },
          'application/geo+json': { schema: z.object({ type: z.literal('FeatureCollection'), features: z.array(z.object({ type: z.literal('Feature'), id: z.string(), geometry: z.object({ type: z.literal('Point'), coordinates: z.tuple([z.number(), z.number()]) }).nullable(), properties: z.record(z.string(), z.unknown()) })) }) },
          'text/csv': { schema: text },
          'image/svg+xml': { schema: text },
        },
      },
      304: notModified,
      ...AREA_ERRORS,
    },
    handler: async ({ query }, req, res): Promise<undefined> => {
      const t = await territory.territory(principalOf(res.locals), query);
      const type: TerritoryType = negotiate(req, Object.keys(TERRITORY_TYPES) as TerritoryType[]);
      const representation = TERRITORY_TYPES[type];
      const { json } = t;
      const answer = {
        contentType: representation.contentType,
        // Lazy: read only when no kept tag stands for it.
        validator: (function* () {
          yield* [type, t.date, t.areaName, t.source];
          yield* json;
        })(),
        lastModified: t.changedAt,
        maxAgeSeconds: maxAge(),
        body: () => representation.body(t, json),
      };
      await sendCached(req, res, answer, t.shared === null ? undefined : { answers: sharedAnswers, key: `${t.shared}|${type}` });
      return undefined;
    },
  });

  defineRoute(router, registry, {
    method: 'get',
    path: '/api/v3/resumen',
    operationId: 'getSummary',
    summary: 'Per-province or per-community summary of one day',
    description:
      'One row per province (`level=province`, default) or autonomous community (`level=community`) of the area (`province`, `community`, or all of Spain): ' +
      'the municipalities with a reading, the highest FWI and where, the mean FWI, the municipalities per EFFIS class, the share at high or above, the épocas ' +
      'de peligro in force and the ten municipalities with the highest FWI. Computed from exactly the rows GET /api/v3/m1/territorio answers for the same ' +
      'token, day and area. `Accept: text/csv` gives one line per area. ' +
      LIMITS_TEXT,
    tags: ['risk'],
    security: [{ BearerToken: ['risk:read'] }],
    before,
    query: ZSummaryQuerySchema,
    responses: {
      200: {
        description: 'The rows of the areas, in code order',
        headers: { ...RATE_LIMIT_HEADERS, ...CACHE_HEADERS, 'Content-Encoding': header('br or gzip when Accept-Encoding allows it.') },
        content: { 'application/json': { schema: ZSummarySchema }, 'text/csv': { schema: text } },
      },
      304: notModified,
      ...AREA_ERRORS,
    },
    handler: async ({ query }, req, res): Promise<undefined> => {
      const { summary, changedAt } = await territory.summary(principalOf(res.locals), query);
      const csv = negotiate(req, ['application/json', 'text/csv'] as const) === 'text/csv';
      const json = JSON.stringify(summary);
      await sendCached(req, res, {
        contentType: csv ? 'text/csv; charset=utf-8; header=present' : 'application/json; charset=utf-8',
        validator: [csv ? 'csv' : 'json', json],
        lastModified: changedAt,
        maxAgeSeconds: maxAge(),
        body: () => (csv ? summaryCsv(summary) : [json]),
      });
      return undefined;
    },
  });
  // The public map page: an HTML page for people, not an API operation (as /docs).
  router.get('/mapa', (_req, res) => {
    const nonce = randomBytes(16).toString('base64');
    res.setHeader(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).type('html').send(renderMapPage(todayInSpain(config.clock()), nonce));
  });
  return router;
}
