import express, { type Router } from 'express';
import { z } from 'zod';
import { defineRoute, pingRedis, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { discoverEngines, type EngineName } from '@firma-riesgo/pdf-core';
import type { Redis } from 'ioredis';

const HEALTH_ENGINES: EngineName[] = ['ghostscript', 'qpdf', 'libreoffice', 'ocrmypdf', 'pdftoppm'];

const EngineStatus = z.object({ available: z.boolean(), version: z.string().nullable() });

export const HealthSchema = z
  .object({
    service: z.literal('esign'),
    status: z.enum(['ok', 'degraded', 'down']).describe('down (503) when the database is unreachable; degraded when Redis is'),
    version: z.string(),
    database: z.enum(['ok', 'down']),
    database_kind: z.enum(['postgres', 'pglite']),
    redis: z.enum(['ok', 'down', 'disabled']).describe('disabled: no REDIS_URL, jobs run in-process'),
    engines: z.record(z.string(), EngineStatus),
    signing: z.object({ self_signed: z.boolean(), tsa: z.boolean().describe('whether TSA_URL is configured (B-T seals)') }),
  })
  .openapi('Health');

export interface HealthDeps {
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  redis?: Redis;
  signing: { selfSigned: boolean; tsa: boolean };
}

export function healthRouter(registry: OpenAPIRegistry, deps: HealthDeps): Router {
  const router = express.Router();
  // Warm the engine cache so the first probe is fast; versions don't change while running.
  void discoverEngines(HEALTH_ENGINES);
  defineRoute(router, registry, {
    method: 'get',
    path: '/health',
    summary: 'Service health',
    description: 'Database, Redis, PDF engines with versions, and the signing set-up. No authentication.',
    tags: ['health'],
    responses: {
      200: { description: 'Healthy or degraded', content: { 'application/json': { schema: HealthSchema } } },
      503: { description: 'Database down', content: { 'application/json': { schema: HealthSchema } } },
    },
    handler: async (_input, _req, res) => {
      const [dbOk, redis, engines] = await Promise.all([deps.database.ping(), pingRedis(deps.redis), discoverEngines(HEALTH_ENGINES)]);
      const body: z.infer<typeof HealthSchema> = {
        service: 'esign',
        status: !dbOk ? 'down' : redis === 'down' ? 'degraded' : 'ok',
        version: deps.version,
        database: dbOk ? 'ok' : 'down',
        database_kind: deps.database.kind,
        redis,
        engines: Object.fromEntries(HEALTH_ENGINES.map((name) => [name, { available: engines[name]?.available ?? false, version: engines[name]?.version ?? null }])),
        signing: { self_signed: deps.signing.selfSigned, tsa: deps.signing.tsa },
      };
      res.status(dbOk ? 200 : 503).json(body);
    },
  });
  return router;
}
