/**
 * Base error of every service: an HTTP status, a stable machine code and, where the
 * error concerns one input, the name of that input (`param`). Services render it in
 * their own envelope through `createErrorHandler`.
 */
export interface AppErrorOptions {
  param?: string;
  cause?: unknown;
  /** Extra response headers, e.g. Retry-After on 429. */
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param?: string;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.param = options.param;
    this.headers = options.headers ?? {};
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, code = 'BAD_REQUEST', options?: AppErrorOptions) {
    super(400, code, message, options);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Invalid credentials', code = 'UNAUTHORIZED', options?: AppErrorOptions) {
    super(401, code, message, options);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Forbidden', code = 'FORBIDDEN', options?: AppErrorOptions) {
    super(403, code, message, options);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found', code = 'NOT_FOUND', options?: AppErrorOptions) {
    super(404, code, message, options);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'CONFLICT', options?: AppErrorOptions) {
    super(409, code, message, options);
  }
}

export class GoneError extends AppError {
  constructor(message: string, code = 'GONE', options?: AppErrorOptions) {
    super(410, code, message, options);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = 'Request body too large', code = 'PAYLOAD_TOO_LARGE', options?: AppErrorOptions) {
    super(413, code, message, options);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string, code = 'UNSUPPORTED_MEDIA_TYPE', options?: AppErrorOptions) {
    super(415, code, message, options);
  }
}

/** A well-formed request the service cannot act on (a date outside the served range, an unsupported format). */
export class UnprocessableError extends AppError {
  constructor(message: string, code = 'UNPROCESSABLE', options?: AppErrorOptions) {
    super(422, code, message, options);
  }
}

export class LockedError extends AppError {
  constructor(message: string, code = 'LOCKED', options?: AppErrorOptions) {
    super(423, code, message, options);
  }
}

export class RateLimitedError extends AppError {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number, code = 'RATE_LIMIT_EXCEEDED', options: AppErrorOptions = {}) {
    const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, code, message, { ...options, headers: { 'Retry-After': String(retryAfter), ...options.headers } });
    this.retryAfterSeconds = retryAfter;
  }
}

export class UnavailableError extends AppError {
  constructor(message: string, code = 'SERVICE_UNAVAILABLE', options?: AppErrorOptions) {
    super(503, code, message, options);
  }
}

export class InternalError extends AppError {
  constructor(message = 'Internal server error', code = 'INTERNAL_ERROR', options?: AppErrorOptions) {
    super(500, code, message, options);
  }
}
