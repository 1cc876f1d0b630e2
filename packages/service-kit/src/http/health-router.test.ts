import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import type { Redis } from 'ioredis';
import { createHealthRouter, type HealthRouterSpec } from './health-router';
import { generateOpenApiDocument, OpenAPIRegistry } from './openapi';

const database = (up: boolean) => ({ kind: 'pglite' as const, ping: async () => up });
const redis = (answer: 'PONG' | Error) => ({ ping: async () => (answer instanceof Error ? Promise.reject(answer) : answer) }) as unknown as Redis;

const FIELDS = { engines: z.array(z.string()), note: z.string().optional().describe('only when down') };

function healthApp(overrides: Partial<HealthRouterSpec<'demo', typeof FIELDS, string[]>> = {}) {
  const registry = new OpenAPIRegistry();
  const app = express();
  app.use(
    createHealthRouter(registry, {
      service: 'demo',
      description: 'Demo health.',
      version: '1.2.3',
      database: database(true),
      fields: FIELDS,
      probe: async () => ['qpdf'],
      extra: ({ databaseOk, probe }) => ({ engines: probe, ...(databaseOk ? {} : { note: 'database gone' }) }),
      ...overrides,
    }),
  );
  return { app, registry };
}

describe('the shared health router', () => {
  it('answers the common fields in order, then the service’s own from its probe', async () => {
    const res = await request(healthApp().app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ service: 'demo', status: 'ok', version: '1.2.3', database: 'ok', database_kind: 'pglite', redis: 'disabled', engines: ['qpdf'] });
    expect(Object.keys(res.body)).toEqual(['service', 'status', 'version', 'database', 'database_kind', 'redis', 'engines']);
  });

  it('is degraded, still 200, when Redis does not answer', async () => {
    const res = await request(healthApp({ redis: redis(new Error('ECONNREFUSED')) }).app).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'degraded', database: 'ok', redis: 'down' });
  });

  it('is down with 503 when the database does not answer, and lets the service add fields for it', async () => {
    const res = await request(healthApp({ database: database(false), redis: redis('PONG') }).app).get('/health');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'down', database: 'down', redis: 'ok', note: 'database gone' });
  });

  it('documents one Health schema, common fields first, for both 200 and 503', () => {
    const { registry } = healthApp();
    const doc = generateOpenApiDocument(registry, { title: 'demo', version: '1', description: '' }) as {
      components: { schemas: { Health: { properties: object; required: string[] } } };
      paths: Record<string, { get: { description: string; responses: Record<string, { content: object }> } }>;
    };
    const health = doc.components.schemas.Health;
    expect(Object.keys(health.properties)).toEqual(['service', 'status', 'version', 'database', 'database_kind', 'redis', 'engines', 'note']);
    expect(health.required).toEqual(['service', 'status', 'version', 'database', 'database_kind', 'redis', 'engines']);
    const get = doc.paths['/health']!.get;
    expect(get.description).toBe('Demo health.');
    expect(get.responses['200']!.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Health' } } });
    expect(get.responses['503']!.content).toEqual(get.responses['200']!.content);
  });
});
