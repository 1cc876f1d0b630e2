import type { Router } from 'express';
import { createHealthRouter, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import type { Redis } from 'ioredis';
import { ZErrorBodySchema } from '../openapi';

/** wildfire's own field of `/health`, after the common ones of service-kit. */
const HEALTH_FIELDS = {
  error: ZErrorBodySchema.shape.error
    .optional()
    .describe('Only with 503: the error object every error carries (interface §7), code SERVICE_UNAVAILABLE.'),
};

export interface HealthDeps {
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  redis?: Redis;
}

export function healthRouter(registry: OpenAPIRegistry, deps: HealthDeps): Router {
  return createHealthRouter(registry, {
    service: 'wildfire',
    description: 'Database and Redis reachability. No authentication.',
    version: deps.version,
    database: deps.database,
    redis: deps.redis,
    fields: HEALTH_FIELDS,
    // A 503 is an error like any other for a client: it carries the §7 error object besides the status fields.
    extra: ({ databaseOk, req }) =>
      databaseOk
        ? {}
        : { error: { code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached; retry with backoff', param: null, request_id: req.requestId ?? '' } },
  });
}
