import type { ErrorCatalogue } from '@firma-riesgo/errors';

/**
 * Every error code wildfire answers: its status and meaning. The error classes of `./errors`
 * take only these codes, each with its own status; the OpenAPI `ErrorBody` description lists
 * them, and `error-codes.test.ts` checks the served document against this table.
 */
export const WILDFIRE_ERROR_CODES = {
  MISSING_REQUIRED_PARAM: { status: 400, description: 'a required parameter is absent (`param` names it)' },
  INVALID_PARAM_FORMAT: { status: 400, description: 'a parameter is malformed, or holds control characters such as NUL (`param` names it)' },
  INVALID_JSON: { status: 400, description: 'the request body is not valid JSON' },
  INVALID_CONTENT_ENCODING: { status: 400, description: 'the body is not valid data for its `Content-Encoding` (gzip, deflate, br)', scope: 'any' },
  UNSUPPORTED_ENCODING: { status: 415, description: 'an unknown `Content-Encoding`, or a charset other than UTF-8', scope: 'any' },
  MISSING_AUTH_HEADER: { status: 401, description: 'no `Authorization: Bearer <token>` header, or a token was put in the query string (`token`, `api_key`, `access_token`, `key`), which is always refused' },
  INVALID_API_KEY: { status: 401, description: 'the header is not `Bearer <token>`, or the token is unknown, revoked or expired' },
  INSUFFICIENT_SCOPE: { status: 403, description: 'the token lacks a scope the endpoint requires (the message names it), or `municipio_id` is outside the token’s municipality list (`param` is `municipio_id`)' },
  CLI_ONLY: { status: 403, description: 'the operator API: a token holding `admin:tokens` is rotated with the operator CLI only (a rotation would grant the scope again)' },
  IP_NOT_ALLOWED: { status: 403, description: 'the token has an IP allowlist and the request comes from outside it' },
  NOT_FOUND: { status: 404, description: 'no such route', scope: 'any' },
  TOKEN_NOT_FOUND: { status: 404, description: 'the operator API: no active token with this id (`param` is `token_id`)' },
  MUNICIPALITY_NOT_FOUND: { status: 404, description: '`municipio_id` is well-formed but no municipality has that INE code' },
  FORECAST_NOT_AVAILABLE: { status: 404, description: 'live tokens: no forecast is stored for the municipality (AEMET_API_KEY unset, the forecast run has not reached it yet, or it has no observed reading to chain the FWI from)' },
  READING_NOT_FOUND: { status: 404, description: 'live tokens: the latest reading was asked for and nothing is stored yet, m3/framing asked for a `date` with no stored reading (`param` is `date`), or a report for a month with no stored reading (`param` is `periodo`)' },
  SUBSCRIPTION_NOT_FOUND: { status: 404, description: 'no alert subscription with the given id, or it belongs to another account (`param` is `subscription_id`)' },
  REPORT_NOT_FOUND: { status: 404, description: 'no report with the given id, or it belongs to another account (`param` is `report_id`)' },
  REPORT_EXPIRED: { status: 410, description: 'the report was generated more than 12 months ago and is no longer available' },
  ECOSYSTEM_NOT_FOUND: { status: 404, description: 'no ecosystem data is loaded for the municipality yet (live tokens, m10 and /ecosystem)' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'the request body exceeds WILDFIRE_JSON_LIMIT (100 kB by default)', scope: 'any' },
  DATE_OUT_OF_RANGE: { status: 422, description: 'a date is before 2015-01-01 or after today (Spanish calendar), or a report `periodo` before 2015-01 or after the current month; `param` names it' },
  UNSUPPORTED_FORMAT: { status: 422, description: 'the report `format` is not one of pdf, csv, json (`param` is `format`)' },
  INVALID_DATE_RANGE: { status: 422, description: '`date_from` is after `date_to`' },
  DATE_RANGE_TOO_LARGE: { status: 422, description: 'the range covers more than 366 days (both ends included)' },
  WEBHOOK_URL_REFUSED: { status: 422, description: '`webhook_url` is refused by the outbound guard: not https (unless WILDFIRE_WEBHOOK_ALLOW_HTTP), a private, loopback or link-local address (unless WILDFIRE_WEBHOOK_ALLOW_PRIVATE), or a name that does not resolve (`param` is `webhook_url`)' },
  SUBSCRIPTION_LIMIT_REACHED: { status: 409, description: 'the account holds WILDFIRE_ALERT_SUBSCRIPTIONS_MAX alert subscriptions already (50 by default); delete one first' },
  RATE_LIMIT_EXCEEDED: { status: 429, description: 'the token’s per-minute budget for the endpoint is spent (100/min on data endpoints, 10/min on report creation); wait `Retry-After` seconds' },
  QUOTA_EXCEEDED: { status: 429, description: 'the account’s monthly request quota is spent (live tokens); `Retry-After` counts the seconds to the next month (Spanish time)' },
  INTERNAL_ERROR: { status: 500, description: 'an unexpected error; it is logged under the `request_id`', scope: 'any' },
  REPORT_FAILED: { status: 500, description: 'the report generation job failed; retry `POST /api/v1/report`' },
  SERVICE_UNAVAILABLE: { status: 503, description: 'a dependency (database, Redis) is unavailable; retry with backoff. Rate-limited endpoints answer it rather than serve uncounted requests when Redis is down' },
  AMBIGUOUS_TOKEN: { status: 409, description: 'the operator CLI: a token prefix matches more than one active token', scope: 'internal' },
  ALREADY_ROTATED: { status: 409, description: 'the operator API and CLI: the token was already rotated (rotate its replacement), or revoked meanwhile' },
} as const satisfies ErrorCatalogue;

export type WildfireErrorCode = keyof typeof WILDFIRE_ERROR_CODES;
