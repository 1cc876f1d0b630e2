import type { AppError } from './app-error';
import { ValidationError } from './validation-error';
import type { EnvelopeFormatter } from './error-handler';

/**
 * esign: 422 -> `{"detail":[{loc,msg,type}]}` (the original FastAPI service's shape);
 * anything else -> `{"detail": message, "code", "request_id"}`.
 */
export const esignEnvelope: EnvelopeFormatter = (error: AppError, requestId: string) => {
  if (error instanceof ValidationError) {
    return { status: 422, body: { detail: error.issues } };
  }
  return { status: error.status, body: { detail: error.message, code: error.code, request_id: requestId } };
};

/**
 * wildfire: Stripe-style `{"error":{code,message,param,request_id}}`. Field errors are
 * 400 with MISSING_REQUIRED_PARAM or INVALID_PARAM_FORMAT for the first bad parameter.
 */
export const wildfireEnvelope: EnvelopeFormatter = (error: AppError, requestId: string) => {
  let status = error.status;
  let code = error.code;
  if (error instanceof ValidationError) {
    status = 400;
    if (code === 'VALIDATION_ERROR') {
      code = error.issues[0]?.type === 'missing' ? 'MISSING_REQUIRED_PARAM' : 'INVALID_PARAM_FORMAT';
    }
  }
  return {
    status,
    body: { error: { code, message: error.message, param: error.param ?? null, request_id: requestId } },
  };
};
