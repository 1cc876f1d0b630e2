import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GoneError,
  InternalError,
  LockedError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthorizedError,
  UnavailableError,
  UnprocessableError,
  UnsupportedMediaTypeError,
  type AppErrorOptions,
} from './app-error';

/**
 * One error code of a service: the status (or statuses) it answers with and what it means.
 * `scope: 'any'` marks a code any route may answer (the envelope's own: a malformed body,
 * an unknown route, an internal error), so no route needs to declare it; `'internal'` a
 * code that never reaches a client.
 */
export interface ErrorCodeEntry {
  readonly status: number | readonly number[];
  readonly description: string;
  readonly scope?: 'any' | 'internal';
}

/** A service's error codes: code -> entry. Declare it `as const satisfies ErrorCatalogue`. */
export type ErrorCatalogue = Readonly<Record<string, ErrorCodeEntry>>;

type StatusesOf<E extends ErrorCodeEntry> = E['status'] extends readonly number[] ? E['status'][number] : E['status'];

/** The codes of catalogue `C` that answer status `S`. */
export type CodeOfStatus<C extends ErrorCatalogue, S extends number> = {
  [K in keyof C & string]: S extends StatusesOf<C[K]> ? K : never;
}[keyof C & string];

/** The statuses a catalogue entry answers with, as a list. */
export function statusesOf(entry: ErrorCodeEntry): readonly number[] {
  return typeof entry.status === 'number' ? [entry.status] : entry.status;
}

type Fixed<C extends ErrorCatalogue, S extends number, T> = new (message: string, code: CodeOfStatus<C, S>, options?: AppErrorOptions) => T;

/**
 * The fixed-status error classes of this package, each taking only the codes of catalogue
 * `C` that answer its status: throwing a code the catalogue lacks, or with another status,
 * does not compile. The values are the package's classes, so `instanceof` works across
 * services and packages.
 */
export interface CatalogueErrors<C extends ErrorCatalogue> {
  BadRequestError: Fixed<C, 400, BadRequestError>;
  UnauthorizedError: Fixed<C, 401, UnauthorizedError>;
  ForbiddenError: Fixed<C, 403, ForbiddenError>;
  NotFoundError: Fixed<C, 404, NotFoundError>;
  ConflictError: Fixed<C, 409, ConflictError>;
  GoneError: Fixed<C, 410, GoneError>;
  PayloadTooLargeError: Fixed<C, 413, PayloadTooLargeError>;
  UnsupportedMediaTypeError: Fixed<C, 415, UnsupportedMediaTypeError>;
  UnprocessableError: Fixed<C, 422, UnprocessableError>;
  LockedError: Fixed<C, 423, LockedError>;
  RateLimitedError: new (message: string, retryAfterSeconds: number, code: CodeOfStatus<C, 429>, options?: AppErrorOptions) => RateLimitedError;
  InternalError: Fixed<C, 500, InternalError>;
  UnavailableError: Fixed<C, 503, UnavailableError>;
}

export function catalogueErrors<C extends ErrorCatalogue>(): CatalogueErrors<C> {
  return {
    BadRequestError,
    UnauthorizedError,
    ForbiddenError,
    NotFoundError,
    ConflictError,
    GoneError,
    PayloadTooLargeError,
    UnsupportedMediaTypeError,
    UnprocessableError,
    LockedError,
    RateLimitedError,
    InternalError,
    UnavailableError,
  };
}

interface OpenApiResponses {
  paths?: Record<string, Record<string, { responses?: Record<string, { description?: string }> } | unknown>>;
}

/** An UPPER_SNAKE word with at least one underscore: how an error response names a code. */
const CODE_LIKE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

/**
 * The error codes an OpenAPI document's error responses (4xx, 5xx) name in their
 * descriptions, each with the statuses it is named under. A one-word code counts when the
 * catalogue has it; `isNotCode` drops other words that look like codes (variable names).
 */
export function declaredErrorCodes(doc: OpenApiResponses, catalogue: ErrorCatalogue, isNotCode: (word: string) => boolean = () => false): Map<string, Set<number>> {
  const declared = new Map<string, Set<number>>();
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const responses = (operation as { responses?: Record<string, { description?: string }> }).responses ?? {};
      for (const [status, response] of Object.entries(responses)) {
        if (!/^[45]\d\d$/.test(status)) continue;
        const text = response.description ?? '';
        const words = new Set([...(text.match(CODE_LIKE) ?? []), ...(text.match(/\b[A-Z]{2,}\b/g) ?? []).filter((w) => w in catalogue)]);
        for (const word of words) {
          if (isNotCode(word)) continue;
          if (!declared.has(word)) declared.set(word, new Set());
          declared.get(word)!.add(Number(status));
        }
      }
    }
  }
  return declared;
}

/**
 * Where a served OpenAPI document and a catalogue disagree: a code a response names that the
 * catalogue lacks, or names under a status the catalogue does not give it, and a catalogue
 * code no route declares (unless its scope is `any` or `internal`). Empty when they agree.
 */
export function catalogueMismatches(doc: OpenApiResponses, catalogue: ErrorCatalogue, isNotCode?: (word: string) => boolean): string[] {
  const problems: string[] = [];
  const declared = declaredErrorCodes(doc, catalogue, isNotCode);
  for (const [code, statuses] of declared) {
    const entry = catalogue[code];
    if (!entry) {
      problems.push(`${code} (${[...statuses].join(', ')}) is declared in the OpenAPI document but is not in the catalogue`);
      continue;
    }
    for (const status of statuses) {
      if (!statusesOf(entry).includes(status)) problems.push(`${code} is declared under ${status}; the catalogue gives ${statusesOf(entry).join(', ')}`);
    }
  }
  for (const [code, entry] of Object.entries(catalogue)) {
    if (!entry.scope && !declared.has(code)) problems.push(`${code} is in the catalogue but no route's error responses declare it`);
  }
  return problems;
}
