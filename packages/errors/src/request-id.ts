import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';

declare module 'http' {
  interface IncomingMessage {
    /** Set by `requestId()`: the incoming X-Request-Id when acceptable, else a fresh one. */
    requestId?: string;
  }
}

const ACCEPTABLE = /^[A-Za-z0-9._:\-]{1,128}$/;

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

/**
 * Gives every request an id, echoing a well-formed incoming `X-Request-Id` so a
 * caller can correlate its own logs; anything else (too long, odd characters that
 * could forge log lines) is replaced by a fresh id.
 */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && ACCEPTABLE.test(incoming) ? incoming : newRequestId();
    req.requestId = id;
    // pino-http reads `req.id` (its own typing of that property differs, hence the cast).
    (req as { id?: unknown }).id = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
