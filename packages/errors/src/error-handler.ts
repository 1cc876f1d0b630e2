import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { AppError, InternalError, NotFoundError, PayloadTooLargeError } from './app-error';
import { ValidationError, fromZodError } from './validation-error';

/** Turns an error into the service's own envelope: the status to send and the JSON body. */
export type EnvelopeFormatter = (error: AppError, requestId: string) => { status: number; body: unknown };

export interface ErrorLogger {
  error(obj: object, msg?: string): void;
}

interface HttpParserError {
  type?: string;
  status?: number;
  code?: string;
  field?: string;
}

/** Normalises anything thrown in a request to an AppError; null for an unknown error. */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return fromZodError(err, 'body');
  const e = (err ?? {}) as HttpParserError;
  if (e.type === 'entity.parse.failed') {
    return new ValidationError([{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }], 'INVALID_JSON');
  }
  if (e.type === 'entity.too.large' || e.code === 'LIMIT_FILE_SIZE') {
    return new PayloadTooLargeError(e.field ? `File "${e.field}" is larger than the allowed size` : 'Request body is larger than the allowed size');
  }
  if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported') {
    return new ValidationError([{ loc: ['body'], msg: 'Unsupported body encoding', type: 'value_error' }], 'UNSUPPORTED_ENCODING');
  }
  if (e.code && e.code.startsWith('LIMIT_')) {
    // multer's other limits (file count, field size, unexpected field)
    return new ValidationError([{ loc: ['form', e.field ?? 'file'], msg: String((err as Error).message), type: 'value_error' }]);
  }
  return null;
}

/**
 * The one error middleware of a service. Known errors are rendered through the
 * service's envelope; unknown ones are logged with their stack and answered as a
 * plain 500 that leaks nothing of the internals.
 */
export function createErrorHandler(format: EnvelopeFormatter, logger?: ErrorLogger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    let appError = toAppError(err);
    if (!appError) {
      (logger ?? console).error({ err, request_id: req.requestId }, 'unhandled error');
      appError = new InternalError();
    }
    const { status, body } = format(appError, req.requestId ?? '');
    for (const [name, value] of Object.entries(appError.headers)) res.setHeader(name, value);
    res.status(status).json(body);
  };
}

/** Final route: anything not matched answers 404 in the service's envelope. */
export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => {
    next(new NotFoundError(`No route for ${req.method} ${req.path}`, 'NOT_FOUND'));
  };
}
