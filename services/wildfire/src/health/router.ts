import express, { type Router } from 'express';
import { z } from 'zod';
import { defineRoute, pingRedis, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import type { Redis } from 'ioredis';
import { ErrorBodySchema } from '../openapi';

export const HealthSchema = z
  .object({
    service: z.literal('wildfire'),
    status: z.enum(['ok', 'degraded', 'down']).describe('down (503) when the database is unreachable; degraded when Redis is'),
    version: z.string(),
    database: z.enum(['ok', 'down']),
    database_kind: z.enum(['postgres', 'pglite']),
    redis: z.enum(['ok', 'down', 'disabled']).describe('disabled: no REDIS_URL, jobs run in-process'),
    error: ErrorBodySchema.shape.error
      .optional()
      .describe('Only with 503: the error object every error carries (interface §7), code SERVICE_UNAVAILABLE.'),
  })
  .openapi('Health');

export interface HealthDeps {
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  redis?: Redis;
}

export function healthRouter(registry: OpenAPIRegistry, deps: HealthDeps): Router {
  const router = express.Router();
  defineRoute(router, registry, {
    method: 'get',
    path: '/health',
    summary: 'Service health',
    description: 'Database and Redis reachability. No authentication.',
    tags: ['health'],
    responses: {
      200: { description: 'Healthy or degraded', content: { 'application/json': { schema: HealthSchema } } },
      503: { description: 'Database down', content: { 'application/json': { schema: HealthSchema } } },
    },
    handler: async (_input, req, res) => {
      const [dbOk, redis] = await Promise.all([deps.database.ping(), pingRedis(deps.redis)]);
      const body: z.infer<typeof HealthSchema> = {
        service: 'wildfire',
        status: !dbOk ? 'down' : redis === 'down' ? 'degraded' : 'ok',
        version: deps.version,
        database: dbOk ? 'ok' : 'down',
        database_kind: deps.database.kind,
        redis,
      };
      if (!dbOk) {
        // A 503 is an error like any other for a client: it carries the §7 error object besides the status fields.
        body.error = { code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached; retry with backoff', param: null, request_id: req.requestId ?? '' };
      }
      res.status(dbOk ? 200 : 503).json(body);
    },
  });
  return router;
}
