/**
 * An error answer of the API: `{"error": {"code", "message", "param", "request_id"}}`.
 * `code` is stable (see the ErrorBody schema of /openapi.json); `message` is for humans.
 */
export class WildfireApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param: string | null;
  readonly requestId: string | null;
  /** Seconds the server asked to wait (Retry-After), when it did. */
  readonly retryAfterSeconds: number | null;
  /** How many requests were made before giving up (1 when it was not retried). */
  readonly attempts: number;

  constructor(init: { status: number; code: string; message: string; param: string | null; requestId: string | null; retryAfterSeconds: number | null; attempts: number }) {
    super(init.message);
    this.name = 'WildfireApiError';
    this.status = init.status;
    this.code = init.code;
    this.param = init.param;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.attempts = init.attempts;
  }

  /** The envelope's field name, for code that logs errors as the API spells them. */
  get request_id(): string | null {
    return this.requestId;
  }
}

/** The request never got an HTTP answer (connection refused, DNS, timeout); not retried. */
export class WildfireNetworkError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'WildfireNetworkError';
  }
}
