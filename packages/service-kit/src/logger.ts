import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestHandler } from 'express';
import { logSafeError } from '@firma-riesgo/errors';

export type { Logger } from 'pino';

/**
 * Keys whose values never reach the logs, at the top of a log line or one level down:
 * credentials (API keys, tokens, passwords, one-time codes), and personal data
 * (emails, names, client addresses). Log ids instead (`requestId`, `emailId`).
 */
const SECRET_KEYS = ['authorization', 'cookie', 'password', 'p12Password', 'secret', 'token', 'key', 'apiKey', 'api_key', 'otp', 'otp_code', 'code_hash'];
const PERSONAL_KEYS = ['email', 'to', 'from', 'signee_email', 'signeeEmail', 'signee_name', 'signeeName', 'name', 'ip', 'client_ip', 'clientIp', 'remoteAddress', 'remote_address'];
export const REDACTED_LOG_PATHS = [
  ...[...SECRET_KEYS, ...PERSONAL_KEYS].flatMap((key) => [key, `*.${key}`]),
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-forwarded-for"]',
];

export function createLogger(options: { service: string; level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
      // Errors without query parameters, pg's `detail` or email addresses (see logSafeError).
      serializers: { err: logSafeError },
    },
    options.destination,
  );
}

/**
 * One JSON line per request: request id, method, path, status, latency, and the
 * tenant or account the auth middleware recorded in `res.locals.principal`.
 */
export function httpLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req) => req.requestId ?? '',
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id', responseTime: 'latency_ms' },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: redactUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      err: logSafeError,
    },
    customProps: (_req, res) => {
      const principal = (res as unknown as { locals?: { principal?: string } }).locals?.principal;
      return principal ? { principal } : {};
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  }) as unknown as RequestHandler;
}

const CREDENTIAL_PARAMS = /([?&](?:token|api_key|apikey|access_token|key|otp|code|password|email|name)=)[^&#]*/gi;
const EMAIL_IN_URL = /[^/?&=#]+(?:@|%40)[^/?&=#]+/gi;
// A long base64url path segment is a bearer secret (the signing link's token); UUIDs stay.
const SECRET_SEGMENT = /\/(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?:[/?#]|$))[A-Za-z0-9_-]{32,}(?=[/?#]|$)/g;

/** The request URL as logged: credentials, email addresses and link tokens masked. */
export function redactUrl(url: string): string {
  return redactQueryCredentials(url).replace(EMAIL_IN_URL, '[email]').replace(SECRET_SEGMENT, '/[redacted]');
}

/** A refused `?token=pk_...` must not end up in the logs: credential-like query values are masked. */
export function redactQueryCredentials(url: string): string {
  return url.replace(CREDENTIAL_PARAMS, '$1[redacted]');
}
