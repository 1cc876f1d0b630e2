import type { Router } from 'express';
import { z } from 'zod';
import { createHealthRouter, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import type { Redis } from 'ioredis';
import { ZErrorBodySchema } from '../openapi';

/** wildfire's own field of `/health`, after the common ones of service-kit. */
const HEALTH_FIELDS = {
  error: ZErrorBodySchema.shape.error
    .optional()
    .describe('Only with 503: the error object every error carries (interface §7), code SERVICE_UNAVAILABLE.'),
  signing: z
    .object({
      self_signed: z.boolean().describe('whether the certificate sealing report PDFs is self-signed (the generated one, or an operator’s issued by no CA)'),
      tsa: z.boolean().describe('whether WILDFIRE_TSA_URL is configured (timestamped seals: WILDFIRE_PADES_LEVEL, B-LTA by default)'),
    })
    .describe('How report PDFs are sealed.'),
};

export interface HealthDeps {
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  redis?: Redis;
  signing: { selfSigned: boolean; tsa: boolean };
}

export function healthRouter(registry: OpenAPIRegistry, deps: HealthDeps): Router {
  return createHealthRouter(registry, {
    service: 'wildfire',
    description: 'Database and Redis reachability, and how report PDFs are sealed. No authentication.',
    version: deps.version,
    database: deps.database,
    redis: deps.redis,
    fields: HEALTH_FIELDS,
    // A 503 is an error like any other for a client: it carries the §7 error object besides the status fields.
    extra: ({ databaseOk, req }) => ({
      signing: { self_signed: deps.signing.selfSigned, tsa: deps.signing.tsa },
      ...(databaseOk
        ? {}
        : { error: { code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached; retry with backoff', param: null, request_id: req.requestId ?? '' } }),
    }),
  });
}
