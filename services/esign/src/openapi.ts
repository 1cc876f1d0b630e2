import { z } from 'zod';
import { OpenAPIRegistry, type OperationFacts } from '@firma-riesgo/service-kit';
import { ESIGN_ERROR_CODES } from './error-codes';

/** The version of "Electronic Signature Service Interface" this service implements (its §9). */
export const ESIGN_INTERFACE_VERSION = '1.1.0';

const codeTable = Object.entries(ESIGN_ERROR_CODES)
  .filter(([, e]) => !('scope' in e && e.scope === 'internal'))
  .map(([code, e]) => `| ${[e.status].flat().join(', ')} | \`${code}\` | ${e.description} |`)
  .join('\n');

/** The esign OpenAPI registry with the shared components: security scheme and error bodies. */
export function createEsignRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Tenant API key (`esk_...`) in `authorization`, as `Bearer <key>` or the bare key.',
  });
  registry.register(
    'ValidationErrorBody',
    z
      .object({
        detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })),
      })
      .describe('422: every invalid input, located (`["body","signee_email"]`, `["header","authorization"]`).')
      .openapi({ example: { detail: [{ loc: ['body', 'signee_email'], msg: 'Invalid email address', type: 'invalid_format' }] } }),
  );
  registry.register(
    'ErrorBody',
    z
      .object({ detail: z.string(), code: z.string(), request_id: z.string() })
      .describe(`Every other error. \`code\` is stable:\n\n| Status | Code | Meaning |\n| --- | --- | --- |\n${codeTable}`)
      .openapi({ example: { detail: 'Document not found', code: 'DOCUMENT_NOT_FOUND', request_id: 'req_5f0c2e9a1b7d4c3e8f6a2b1c' } }),
  );
  return registry;
}

/**
 * An error response in the OpenAPI document: the description, and the esign error body
 * (`{"detail","code","request_id"}`). The one way every esign route declares its errors.
 */
export function errorResponse(description: string, extra: { headers?: Record<string, { description: string; schema: { type: 'integer' | 'string' } }> } = {}) {
  return { description, ...extra, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
}

/** A 429 response of a per-tenant or per-client budget: the error body, Retry-After and the X-RateLimit-* headers. */
export function rateLimitedResponse(description: string) {
  return errorResponse(`${description}; answers RATE_LIMIT_EXCEEDED, wait \`Retry-After\` seconds`, {
    headers: {
      'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
      'X-RateLimit-Limit': { description: 'Calls allowed in the window', schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Calls left in the window', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'When the window ends (epoch seconds)', schema: { type: 'integer' } },
    },
  });
}

/** A 422 response: the validation-error body (`{"detail":[{"loc","msg","type"}]}`). */
export function validationErrorResponse(description: string) {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationErrorBody' } } } };
}

/**
 * What esign's frame answers on every route of a kind, beside what the route declares:
 * a route behind a key refuses a missing `authorization` (422) and an unknown or revoked
 * key (401, `INVALID_API_KEY`); every route refuses control characters (NUL included)
 * in its query, path or body (422); a body is refused when it is not what its
 * Content-Encoding says (400), over its limit (413) or in an unknown encoding (415).
 */
export function esignCommonResponses(operation: OperationFacts) {
  return {
    ...(operation.hasBody
      ? {
          400: errorResponse('A body that is not what its Content-Encoding says (INVALID_CONTENT_ENCODING)'),
          413: errorResponse('A body over its limit (PAYLOAD_TOO_LARGE; JSON: ESIGN_JSON_LIMIT)'),
          415: errorResponse('An unknown Content-Encoding or a charset other than UTF-8 (UNSUPPORTED_ENCODING)'),
        }
      : {}),
    ...(operation.secured && !operation.keyOptional
      ? {
          401: errorResponse('The key is unknown or revoked (INVALID_API_KEY)'),
          422: validationErrorResponse('No `authorization` header, or control characters in the input'),
        }
      : { 422: validationErrorResponse('Control characters (NUL included) in the query, path or body') }),
  };
}

/** The document's `servers`: ESIGN_PUBLIC_URL, or `/` (the host the document was read from) when it is unset. */
export function esignServers(publicUrl: string | undefined) {
  return [publicUrl ? { url: publicUrl, description: 'This deployment (ESIGN_PUBLIC_URL)' } : { url: '/', description: 'The host serving this document (ESIGN_PUBLIC_URL is unset)' }];
}

export const ESIGN_API_DESCRIPTION = [
  'Multi-tenant electronic signature service: documents, signing requests, PAdES seals, audit trail, PDF tools.',
  '',
  'Errors: 422 answers `{"detail":[{"loc","msg","type"}]}`; every other error answers',
  '`{"detail": "...", "code": "MACHINE_CODE", "request_id": "..."}`. Every response carries `X-Request-Id`.',
].join('\n');
