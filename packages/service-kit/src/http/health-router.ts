import type { Request, Router } from 'express';
import { z } from 'zod';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Redis } from 'ioredis';
import { pingRedis } from '../redis';
import { defineRoute } from './route';

/** The fields every service's `/health` answers, in this order, before the service's own. */
function commonHealthShape<S extends string>(service: S) {
  return {
    service: z.literal(service),
    status: z.enum(['ok', 'degraded', 'down']).describe('down (503) when the database is unreachable; degraded when Redis is'),
    version: z.string(),
    database: z.enum(['ok', 'down']),
    database_kind: z.enum(['postgres', 'pglite']),
    redis: z.enum(['ok', 'down', 'disabled']).describe('disabled: no REDIS_URL, jobs run in-process'),
  };
}

/** The values of the common fields. */
type HealthCommon<S extends string> = z.infer<z.ZodObject<ReturnType<typeof commonHealthShape<S>>>>;

/** A service's OpenAPI `Health` schema: the common fields, then the service's own. */
export function healthSchema<S extends string, E extends z.ZodRawShape>(service: S, fields: E) {
  return z.object({ ...commonHealthShape(service), ...fields }).openapi('Health');
}

/** What a service's health probe sees: whether its database answered, its own probe's result, and the request. */
export interface HealthCheck<P> {
  databaseOk: boolean;
  probe: P;
  req: Request;
}

export interface HealthRouterSpec<S extends string, E extends z.ZodRawShape, P> {
  service: S;
  /** The route's OpenAPI description. */
  description: string;
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  /** Absent without REDIS_URL: `redis` answers `disabled`. */
  redis?: Redis;
  /** The service's own fields, documented after the common ones. */
  fields: E;
  /** Runs beside the database and Redis pings, e.g. discovering external engines. */
  probe?: () => Promise<P>;
  /** The values of the service's own fields; optional ones may be left out. */
  extra(check: HealthCheck<P>): z.infer<z.ZodObject<E>>;
}

/**
 * `GET /health` without authentication: status `down` and 503 when the database does
 * not answer, `degraded` when Redis does not, otherwise `ok`; then the service's fields.
 */
export function createHealthRouter<S extends string, E extends z.ZodRawShape, P = undefined>(
  registry: OpenAPIRegistry,
  spec: HealthRouterSpec<S, E, P>,
): Router {
  const express: typeof import('express') = require('express');
  const schema = healthSchema(spec.service, spec.fields);
  const router = express.Router();
  defineRoute(router, registry, {
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Service health',
    description: spec.description,
    tags: ['health'],
    security: [],
    responses: {
      200: { description: 'Healthy or degraded', content: { 'application/json': { schema } } },
      503: { description: 'Database down', content: { 'application/json': { schema } } },
    },
    handler: async (_input, req, res) => {
      const [databaseOk, redis, probe] = await Promise.all([spec.database.ping(), pingRedis(spec.redis), spec.probe?.()]);
      const common: HealthCommon<S> = {
        service: spec.service,
        status: !databaseOk ? 'down' : redis === 'down' ? 'degraded' : 'ok',
        version: spec.version,
        database: databaseOk ? 'ok' : 'down',
        database_kind: spec.database.kind,
        redis,
      };
      res.status(databaseOk ? 200 : 503).json({ ...common, ...spec.extra({ databaseOk, probe: probe as P, req }) });
    },
  });
  return router;
}
