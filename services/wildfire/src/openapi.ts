import { z } from 'zod';
import { OpenAPIRegistry } from '@firma-riesgo/service-kit';

/**
 * The revision of the "Wildfire Risk Service Interface" this service implements, served
 * as the OpenAPI `info.version` (the package version goes in `info.x-package-version`).
 * The document states no version number: by its §9 the API versions are the URL prefixes
 * (`/api/v1/`, `/api/v3/`, none) and additions ship without a version change, so the
 * document's revision is the date of the last entry of its introduction history.
 */
export const WILDFIRE_INTERFACE_VERSION = '2025-07-28';

/** Every error code wildfire answers so far, with its status; the OpenAPI document lists them. */
export const WILDFIRE_ERROR_CODES = [
  { code: 'MISSING_REQUIRED_PARAM', status: 400, meaning: 'a required parameter is absent (`param` names it)' },
  { code: 'INVALID_PARAM_FORMAT', status: 400, meaning: 'a parameter is malformed, or holds control characters such as NUL (`param` names it)' },
  { code: 'INVALID_JSON', status: 400, meaning: 'the request body is not valid JSON' },
  { code: 'INVALID_CONTENT_ENCODING', status: 400, meaning: 'the body is not valid data for its `Content-Encoding` (gzip, deflate, br)' },
  { code: 'UNSUPPORTED_ENCODING', status: 415, meaning: 'an unknown `Content-Encoding`, or a charset other than UTF-8' },
  {
    code: 'MISSING_AUTH_HEADER',
    status: 401,
    meaning: 'no `Authorization: Bearer <token>` header, or a token was put in the query string (`token`, `api_key`, `access_token`, `key`), which is always refused',
  },
  { code: 'INVALID_API_KEY', status: 401, meaning: 'the header is not `Bearer <token>`, or the token is unknown, revoked or expired' },
  {
    code: 'INSUFFICIENT_SCOPE',
    status: 403,
    meaning: 'the token lacks a scope the endpoint requires (the message names it), or `municipio_id` is outside the token’s municipality list (`param` is `municipio_id`)',
  },
  { code: 'IP_NOT_ALLOWED', status: 403, meaning: 'the token has an IP allowlist and the request comes from outside it' },
  { code: 'NOT_FOUND', status: 404, meaning: 'no such route' },
  { code: 'MUNICIPALITY_NOT_FOUND', status: 404, meaning: '`municipio_id` is well-formed but no municipality has that INE code' },
  {
    code: 'READING_NOT_FOUND',
    status: 404,
    meaning:
      'live tokens: the latest reading was asked for and nothing is stored yet, m3/framing asked for a `date` with no stored reading (`param` is `date`), or a report for a month with no stored reading (`param` is `periodo`)',
  },
  { code: 'REPORT_NOT_FOUND', status: 404, meaning: 'no report with the given id, or it belongs to another account (`param` is `report_id`)' },
  { code: 'REPORT_EXPIRED', status: 410, meaning: 'the report was generated more than 12 months ago and is no longer available' },
  { code: 'ECOSYSTEM_NOT_FOUND', status: 404, meaning: 'no ecosystem data is loaded for the municipality yet (live tokens, m10 and /ecosystem)' },
  { code: 'PAYLOAD_TOO_LARGE', status: 413, meaning: 'the request body exceeds WILDFIRE_JSON_LIMIT (100 kB by default)' },
  { code: 'DATE_OUT_OF_RANGE', status: 422, meaning: 'a date is before 2015-01-01 or after today (Spanish calendar), or a report `periodo` before 2015-01 or after the current month; `param` names it' },
  { code: 'UNSUPPORTED_FORMAT', status: 422, meaning: 'the report `format` is not one of pdf, csv, json (`param` is `format`)' },
  { code: 'INVALID_DATE_RANGE', status: 422, meaning: '`date_from` is after `date_to`' },
  { code: 'DATE_RANGE_TOO_LARGE', status: 422, meaning: 'the range covers more than 366 days (both ends included)' },
  {
    code: 'RATE_LIMIT_EXCEEDED',
    status: 429,
    meaning: 'the token’s per-minute budget for the endpoint is spent (100/min on data endpoints, 10/min on report creation); wait `Retry-After` seconds',
  },
  { code: 'QUOTA_EXCEEDED', status: 429, meaning: 'the account’s monthly request quota is spent (live tokens); `Retry-After` counts the seconds to the next month (Spanish time)' },
  { code: 'INTERNAL_ERROR', status: 500, meaning: 'an unexpected error; it is logged under the `request_id`' },
  { code: 'REPORT_FAILED', status: 500, meaning: 'the report generation job failed; retry `POST /api/v1/report`' },
  {
    code: 'SERVICE_UNAVAILABLE',
    status: 503,
    meaning: 'a dependency (database, Redis) is unavailable; retry with backoff. Rate-limited endpoints answer it rather than serve uncounted requests when Redis is down',
  },
] as const;

const codeTable = WILDFIRE_ERROR_CODES.map((e) => `| ${e.status} | \`${e.code}\` | ${e.meaning} |`).join('\n');

export const ZErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().describe('Stable machine code; see the table in the description.'),
      message: z.string().describe('Human-readable explanation; may change between versions.'),
      param: z.string().nullable().describe('The parameter the error concerns, or null.'),
      request_id: z.string().describe('Also sent as the `X-Request-Id` header; quote it when reporting a problem.'),
    }),
  })
  .openapi('ErrorBody', {
    description: `Every error answers this envelope.\n\n| Status | Code | Meaning |\n| --- | --- | --- |\n${codeTable}`,
    example: { error: { code: 'INSUFFICIENT_SCOPE', message: 'This token lacks the scope reports:write required here', param: null, request_id: 'req_5f0c2e9a1b7d4c3e8f6a2b1c' } },
  });

/** A documented error response: `description` says when the endpoint answers it. */
export function errorResponse(description: string) {
  return { description, content: { 'application/json': { schema: ZErrorBodySchema } } };
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });

/** Headers of every response counted against a token's rate limit. */
export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': integerHeader('Requests the token may make per minute on this endpoint group.'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'X-RateLimit-Reset': integerHeader('When the current window ends, in epoch seconds.'),
};

/** The 429 and 503 responses of a rate-limited route (`rateLimit(limits, kind)` in its `before` list). */
export function rateLimitedResponses(kind: 'data' | 'reports') {
  const limit = kind === 'data' ? 'the data endpoints’ per-minute budget (100 by default)' : 'the report-creation budget (10 per minute by default)';
  return {
    429: {
      ...errorResponse(`RATE_LIMIT_EXCEEDED (${limit} is spent; live tokens only) or QUOTA_EXCEEDED (the account’s monthly quota is spent)`),
      headers: { 'Retry-After': integerHeader('Seconds to wait before retrying.'), ...RATE_LIMIT_HEADERS },
    },
    503: errorResponse('SERVICE_UNAVAILABLE: the rate-limit store (Redis) or the database cannot be reached; the request was not served'),
  };
}

/** The wildfire OpenAPI registry with the shared components: security scheme and error body. */
export function createWildfireRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'BearerToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      'Account token (`pk_live_...` or `pk_test_...`) in `Authorization: Bearer <token>`. Tokens in the query string are refused. ' +
      'Each endpoint lists the scope it needs (`risk:read`, `reports:read`, `reports:write`, `ecosystem:read`).',
  });
  registry.register('ErrorBody', ZErrorBodySchema);
  return registry;
}

export const WILDFIRE_API_DESCRIPTION = [
  'Wildfire risk data for Spanish municipalities: daily Fire Weather Index readings, risk scores and ecosystem data.',
  '',
  `Implements the "Wildfire Risk Service Interface" as of its revision ${WILDFIRE_INTERFACE_VERSION} (\`info.version\`; the running package is \`info.x-package-version\`). ` +
    'API versions are URL prefixes: `/api/v3/` for the analytical modules, `/api/v1/` for account and reports; `/ecosystem` and `/health` carry none. ' +
    'Reports: `POST /api/v1/report` answers the monthly report (PDF, or its data as csv or json); `GET /api/v1/reports` and `GET /api/v1/reports/{report_id}` list and download them again for 12 months.',
  '',
  'Authentication: `Authorization: Bearer <token>`. `pk_test_` tokens read deterministic synthetic data; `pk_live_` tokens read the database.',
  '',
  'Errors: every error answers `{"error": {"code", "message", "param", "request_id"}}` (schema `ErrorBody`, which lists the codes).',
  'Every response carries `X-Request-Id` (an incoming well-formed one is echoed).',
].join('\n');
