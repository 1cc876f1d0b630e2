import express, { type Router } from 'express';
import { z } from 'zod';
import { defineRoute, pingRedis, type OpenAPIRegistry } from '@platform/service-kit';
import type { Redis } from 'ioredis';

export const HealthSchema = z
  .object({
    service: z.literal('wildfire'),
    status: z.enum(['ok', 'degraded', 'down']).describe('down (503) when the database is unreachable; degraded when Redis is'),
    version: z.string(),
    database: z.enum(['ok', 'down']),
    database_kind: z.enum(['postgres', 'pglite']),
    redis: z.enum(['ok', 'down', 'disabled']).describe('disabled: no REDIS_URL, jobs run in-process'),
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
    handler: async (_input, _req, res) => {
      const [dbOk, redis] = await Promise.all([deps.database.ping(), pingRedis(deps.redis)]);
      const body: z.infer<typeof HealthSchema> = {
        service: 'wildfire',
        status: !dbOk ? 'down' : redis === 'down' ? 'degraded' : 'ok',
        version: deps.version,
        database: dbOk ? 'ok' : 'down',
        database_kind: deps.database.kind,
        redis,
      };
      res.status(dbOk ? 200 : 503).json(body);
    },
  });
  return router;
}
