import { catalogueErrors } from '@firma-riesgo/errors';
import type { ESIGN_ERROR_CODES } from './error-codes';

export { ValidationError } from '@firma-riesgo/errors';

/**
 * The error classes esign throws: those of `@firma-riesgo/errors`, taking only the codes of
 * `ESIGN_ERROR_CODES` that answer the class's status. Invalid input throws `ValidationError`
 * (its 422 list carries no code).
 */
export const {
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
} = catalogueErrors<typeof ESIGN_ERROR_CODES>();
