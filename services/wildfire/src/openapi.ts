import { z } from 'zod';
import { OpenAPIRegistry, type OperationFacts } from '@firma-riesgo/service-kit';
import { WILDFIRE_ERROR_CODES } from './error-codes';

export { WILDFIRE_ERROR_CODES } from './error-codes';

/**
 * The revision of the "Wildfire Risk Service Interface" this service implements, served
 * as the OpenAPI `info.version` (the package version goes in `info.x-package-version`).
 * The document states no version number: by its §9 the API versions are the URL prefixes
 * (`/api/v1/`, `/api/v3/`, none) and additions ship without a version change, so the
 * document's revision is the date of the last entry of its introduction history.
 */
export const WILDFIRE_INTERFACE_VERSION = '2025-07-28';


const codeTable = Object.entries(WILDFIRE_ERROR_CODES)
  .filter(([, e]) => !('scope' in e && e.scope === 'internal'))
  .map(([code, e]) => `| ${e.status} | \`${code}\` | ${e.description} |`)
  .join('\n');

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

/** The validator headers of a JSON answer that revalidates (m1, m10, m3): see `sendJsonWithEtag`. */
export const ETAG_HEADERS = {
  ETag: { description: 'Strong validator of the answer (a digest of its bytes); send it back in If-None-Match to get 304 while it is unchanged.', schema: { type: 'string' as const } },
};

/** The 304 of such a route: only when the request's If-None-Match names the current ETag; it still counts against the limits. */
export const NOT_MODIFIED_RESPONSE = {
  304: {
    description: 'Not Modified: the request’s If-None-Match names the current ETag; no body. Counts as a request of the budget and of the month, as a 200 does.',
    headers: { ...ETAG_HEADERS, ...RATE_LIMIT_HEADERS },
  },
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

/**
 * What wildfire's frame answers on every route of a kind, beside what the route declares:
 * control characters (NUL included) in any parameter are refused with 400
 * INVALID_PARAM_FORMAT; a route behind a token answers 401 without a valid one; a body is
 * refused when over WILDFIRE_JSON_LIMIT (413) or in an unknown encoding (415).
 */
export function wildfireCommonResponses(operation: OperationFacts) {
  // The document holds them as they are generated, so they point at the registered ErrorBody.
  const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });
  return {
    400: errorResponse('INVALID_PARAM_FORMAT: control characters (NUL included) in a parameter (`param` names it)'),
    ...(operation.secured ? { 401: errorResponse('MISSING_AUTH_HEADER (no `Authorization: Bearer`, or a token in the query string) or INVALID_API_KEY') } : {}),
    ...(operation.hasBody
      ? {
          413: errorResponse('PAYLOAD_TOO_LARGE: the body is over WILDFIRE_JSON_LIMIT'),
          415: errorResponse('UNSUPPORTED_ENCODING: an unknown Content-Encoding or a charset other than UTF-8'),
        }
      : {}),
  };
}

/** The document's `servers`: WILDFIRE_PUBLIC_URL, or `/` (the host the document was read from) when it is unset. */
export function wildfireServers(publicUrl: string | undefined) {
  return [publicUrl ? { url: publicUrl, description: 'This deployment (WILDFIRE_PUBLIC_URL)' } : { url: '/', description: 'The host serving this document (WILDFIRE_PUBLIC_URL is unset)' }];
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
