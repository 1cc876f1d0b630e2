import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestHandler } from 'express';

export type { Logger } from 'pino';

export function createLogger(options: { service: string; level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
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
      req: (req: { method: string; url: string }) => ({ method: req.method, url: redactQueryCredentials(req.url) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customProps: (_req, res) => {
      const principal = (res as unknown as { locals?: { principal?: string } }).locals?.principal;
      return principal ? { principal } : {};
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  }) as unknown as RequestHandler;
}

const CREDENTIAL_PARAMS = /([?&](?:token|api_key|apikey|access_token|key|otp|code)=)[^&#]*/gi;

/** A refused `?token=pk_...` must not end up in the logs: credential-like query values are masked. */
export function redactQueryCredentials(url: string): string {
  return url.replace(CREDENTIAL_PARAMS, '$1[redacted]');
}
