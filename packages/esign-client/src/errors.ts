/** One invalid input of a 422 answer: where (`["body","signee_email"]`), what, and its kind. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * An error answer of esign: `{"detail","code","request_id"}`, or for 422 the list of
 * invalid inputs `{"detail":[{loc,msg,type}]}` (code `VALIDATION_ERROR`, `issues` filled).
 * `code` is stable (the ErrorBody schema of /openapi.json lists them); the message is for humans.
 */
export class EsignApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  /** The invalid inputs of a 422; empty otherwise. */
  readonly issues: ValidationIssue[];
  /** Seconds the server asked to wait (Retry-After), when it did. */
  readonly retryAfterSeconds: number | null;
  /** How many requests were made before giving up (1 when it was not retried). */
  readonly attempts: number;

  constructor(init: { status: number; code: string; message: string; requestId: string | null; issues: ValidationIssue[]; retryAfterSeconds: number | null; attempts: number }) {
    super(init.message);
    this.name = 'EsignApiError';
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.issues = init.issues;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.attempts = init.attempts;
  }
}

/** The request never got an HTTP answer (connection refused, DNS, timeout); not retried. */
export class EsignNetworkError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'EsignNetworkError';
  }
}
