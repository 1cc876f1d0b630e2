import { catalogueErrors } from '@firma-riesgo/errors';
import type * as base from '@firma-riesgo/errors';
import type { WILDFIRE_ERROR_CODES } from './error-codes';

/**
 * The error classes wildfire throws: those of `@firma-riesgo/errors`, taking only the codes of
 * `WILDFIRE_ERROR_CODES` that answer the class's status.
 */
export const {
  ConflictError,
  ForbiddenError,
  GoneError,
  InternalError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  UnavailableError,
  UnprocessableError,
} = catalogueErrors<typeof WILDFIRE_ERROR_CODES>();

/** The class as a type, for `instanceof` results and declared returns. */
export type NotFoundError = base.NotFoundError;
