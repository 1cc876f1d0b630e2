import pino, { type Logger } from 'pino';
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
 *
 * The line is written by a single call on the service logger when the response
 * finishes (or the client goes away), so the logger's redaction and `err` serializer
 * apply as to any other line. Nothing is built per request when the level is off: no
 * child loggers, no serializers run over the whole request (the cost pino-http had).
 * Fields, order and messages are those pino-http wrote:
 * `{request_id, req: {method, url}, principal?, res: {status}, err?, latency_ms}` with
 * "request completed", "request errored" (5xx) or "request aborted".
 */
export function httpLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    const done = (err?: unknown) => {
      res.removeListener('close', done);
      res.removeListener('finish', done);
      res.removeListener('error', done);
      const status = res.statusCode;
      const failed = err !== undefined || status >= 500;
      const level = failed ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line: AccessLine = { request_id: req.requestId ?? '', req: { method: req.method, url: redactUrl(req.originalUrl) } };
      const principal = (res.locals as { principal?: string } | undefined)?.principal;
      if (principal) line.principal = principal;
      line.res = { status: res.headersSent ? status : null };
      if (failed) line.err = err ?? new Error(`failed with status code ${status}`);
      line.latency_ms = Date.now() - started;
      const message = failed ? 'request errored' : !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
      logger[level](line, message);
    };
    res.on('close', done);
    res.on('finish', done);
    res.on('error', done);
    next();
  };
}

interface AccessLine {
  request_id: string;
  req: { method: string; url: string };
  principal?: string;
  res?: { status: number | null };
  err?: unknown;
  latency_ms?: number;
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
