import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import { AppError, BadRequestError, InternalError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from './app-error';
import { logSafeError } from './log-safe-error';
import { ValidationError, fromZodError } from './validation-error';

/** Turns an error into the service's own envelope: the status to send and the JSON body. */
export type EnvelopeFormatter = (error: AppError, requestId: string) => { status: number; body: unknown };

export interface ErrorLogger {
  error(obj: object, msg?: string): void;
}

interface HttpParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  code?: string;
  field?: string;
  name?: string;
  message?: string;
}

/** zlib's codes for a compressed body that is not what its Content-Encoding says. */
const ZLIB_DATA_ERRORS = new Set(['Z_DATA_ERROR', 'Z_BUF_ERROR', 'Z_NEED_DICT', 'ERR_BROTLI_DECOMPRESSION_FAILED', 'ERR_ZLIB_INITIALIZATION_FAILED']);

const CLIENT_ERROR_CODES: Record<number, string> = { 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE', 416: 'RANGE_NOT_SATISFIABLE' };

/**
 * Normalises anything thrown in a request to an AppError; null for an unknown error.
 * Every error of the request parsers (body-parser, multer) becomes a 4xx: malformed
 * input is the client's doing and must never answer 500.
 */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) return fromZodError(err, 'body');
  const e = (err ?? {}) as HttpParserError;
  if (e.type === 'entity.parse.failed') {
    return new ValidationError([{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }], 'INVALID_JSON');
  }
  if (e.type === 'entity.too.large' || e.type === 'parameters.too.many' || e.code === 'LIMIT_FILE_SIZE') {
    return new PayloadTooLargeError(e.field ? `File "${e.field}" is larger than the allowed size` : 'Request body is larger than the allowed size');
  }
  if (e.type === 'encoding.unsupported') {
    return new UnsupportedMediaTypeError('Unsupported Content-Encoding: send the body uncompressed, or as gzip, deflate or br', 'UNSUPPORTED_ENCODING');
  }
  if (e.type === 'charset.unsupported') {
    return new UnsupportedMediaTypeError('Unsupported charset: send the body as UTF-8', 'UNSUPPORTED_ENCODING');
  }
  if (e.status === 400 && e.code && ZLIB_DATA_ERRORS.has(e.code)) {
    return new BadRequestError('The request body could not be decompressed: it is not valid data for its Content-Encoding', 'INVALID_CONTENT_ENCODING');
  }
  if (e.name === 'MulterError' || (e.code && e.code.startsWith('LIMIT_'))) {
    // multer's other limits and malformed field names (file count, field size, unexpected field, ...)
    return new ValidationError([{ loc: ['form', e.field ?? 'file'], msg: String(e.message), type: 'value_error' }]);
  }
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && e.expose === true) {
    // Any other client error a parser raised through http-errors (aborted or short body, bad Content-Length, ...).
    return new AppError(status, CLIENT_ERROR_CODES[status] ?? 'BAD_REQUEST', String(e.message || 'Bad request'));
  }
  return null;
}

/**
 * The one error middleware of a service. Known errors are rendered through the
 * service's envelope; unknown ones are logged with their stack (without query
 * parameters or email addresses) and answered as a plain 500 that leaks nothing.
 */
export function createErrorHandler(format: EnvelopeFormatter, logger?: ErrorLogger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    let appError = toAppError(err);
    if (!appError) {
      // Never the raw error: database errors carry the query parameters (personal data).
      (logger ?? console).error({ err: logSafeError(err), request_id: req.requestId }, 'unhandled error');
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
