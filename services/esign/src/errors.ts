import { catalogueErrors } from '@firma-riesgo/errors';
import type * as base from '@firma-riesgo/errors';
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

export type BadRequestError = base.BadRequestError;
export type ConflictError = base.ConflictError;
export type ForbiddenError = base.ForbiddenError;
export type GoneError = base.GoneError;
export type InternalError = base.InternalError;
export type LockedError = base.LockedError;
export type NotFoundError = base.NotFoundError;
export type PayloadTooLargeError = base.PayloadTooLargeError;
export type RateLimitedError = base.RateLimitedError;
export type UnauthorizedError = base.UnauthorizedError;
export type UnavailableError = base.UnavailableError;
