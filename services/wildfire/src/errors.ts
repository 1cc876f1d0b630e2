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

export type ConflictError = base.ConflictError;
export type ForbiddenError = base.ForbiddenError;
export type GoneError = base.GoneError;
export type InternalError = base.InternalError;
export type NotFoundError = base.NotFoundError;
export type RateLimitedError = base.RateLimitedError;
export type UnauthorizedError = base.UnauthorizedError;
export type UnavailableError = base.UnavailableError;
export type UnprocessableError = base.UnprocessableError;
