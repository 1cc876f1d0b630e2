import request from 'supertest';
import { eq } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { WILDFIRE_ERROR_CODES, WILDFIRE_INTERFACE_VERSION } from '../openapi';
import { monthInSpain } from '../rate-limits/service';
import { apiTokens } from '../tokens/tables';
import { clearRedisPrefix, eventually, REDIS_URL, testConfig, uniquePrefix } from './support';


const METRICS_TOKEN = 'api-postgres-metrics-token-0123456789';
describe('wildfire on Postgres and Redis', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_api');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, METRICS_TOKEN }), 'all');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  const lastUsedAt = async (id: string) => {
    const [row] = await rt.database.db.select({ lastUsedAt: apiTokens.lastUsedAt }).from(apiTokens).where(eq(apiTokens.id, id));
    return row?.lastUsedAt ?? null;
  };

  describe('health and the HTTP frame', () => {
    it('reports a healthy Postgres database and Redis', async () => {
      const res = await request(rt.server!).get('/health');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ service: 'wildfire', status: 'ok', version: '0.1.0', database: 'ok', database_kind: 'postgres', redis: 'ok', signing: { self_signed: true, tsa: false } });
    });

    it('creates no demo token against a real database', async () => {
      expect(rt.demoToken).toBeNull();
      expect(await rt.tokens.list('demo')).toEqual([]);
    });

    it('answers unknown routes with 404 NOT_FOUND in the error envelope, echoing the request id', async () => {
      const res = await request(rt.server!).get('/api/v1/nothing-here').set('X-Request-Id', 'trace-42');
      expect(res.status).toBe(404);
      expect(res.headers['x-request-id']).toBe('trace-42');
      expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No route for GET /api/v1/nothing-here', param: null, request_id: 'trace-42' } });
    });

    it('gives a request without X-Request-Id a fresh one, in the header and in the error body', async () => {
      const res = await request(rt.server!).get('/nope');
      expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
      expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    });

    it('answers a malformed JSON body with 400 INVALID_JSON before any routing', async () => {
      const res = await request(rt.server!).post('/api/v1/me').set('content-type', 'application/json').send('{"account":');
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_JSON', request_id: res.headers['x-request-id'] });
    });

    it('answers a JSON body over 100kb with 413 PAYLOAD_TOO_LARGE in the envelope', async () => {
      const res = await request(rt.server!)
        .post('/api/v1/me')
        .set('content-type', 'application/json')
        .send(JSON.stringify({ pad: 'x'.repeat(101 * 1024) }));
      expect(res.status).toBe(413);
      expect(res.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', param: null, request_id: res.headers['x-request-id'] });
    });

    it('exposes Prometheus metrics with request latencies by route', async () => {
      await request(rt.server!).get('/health');
      const res = await request(rt.server!).get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toMatch(/http_request_duration_seconds_count\{service="wildfire",method="GET",route="\/health",status="200"\} [1-9]/);
    });

    it('serves an OpenAPI 3.1 document with /health, /api/v1/me behind the bearer scheme, and the error codes', async () => {
      const { body } = await request(rt.server!).get('/openapi.json');
      expect(body.openapi).toBe('3.1.0');
      expect(body.info).toMatchObject({ title: 'wildfire', version: WILDFIRE_INTERFACE_VERSION, 'x-package-version': '0.1.0' });
      expect(body.paths['/health'].get.responses).toHaveProperty('503');
      const me = body.paths['/api/v1/me'].get;
      expect(me.security).toEqual([{ BearerToken: [] }]);
      expect(me.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Me' });
      expect(me.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      expect(body.components.securitySchemes.BearerToken).toMatchObject({ type: 'http', scheme: 'bearer' });
      const errorBody = body.components.schemas.ErrorBody;
      expect(errorBody.properties.error.required).toEqual(['code', 'message', 'param', 'request_id']);
      for (const [code, e] of Object.entries(WILDFIRE_ERROR_CODES)) if (!('scope' in e && e.scope === 'internal')) expect(errorBody.description).toContain(`\`${code}\``);
    });
  });

  describe('GET /api/v1/me', () => {
    it('describes the calling token and its account, and never the secret', async () => {
      const { token, record } = await rt.tokens.create({
        account: 'ayto-madrid',
        type: 'live',
        scopes: ['risk:read', 'reports:read'],
        municipios: ['28079'],
        expiresAt: new Date(Date.now() + 86_400_000),
      });
      const res = await request(rt.server!).get('/api/v1/me').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        account: 'ayto-madrid',
        token: {
          id: record.id,
          prefix: record.prefix,
          type: 'live',
          scopes: ['risk:read', 'reports:read'],
          operator_scopes: [],
          municipios: ['28079'],
          ip_allowlist: null,
          expires_at: record.expiresAt!.toISOString(),
          created_at: record.createdAt.toISOString(),
        },
        rate_limits: {
          data: { limit: 100, remaining: 100, reset: null, window_seconds: 60 },
          reports: { limit: 10, remaining: 10, reset: null, window_seconds: 60 },
          territory: { limit: 10, remaining: 10, reset: null, window_seconds: 60 },
        },
        usage: { month: monthInSpain(new Date()), requests: 0, quota: null, remaining: null },
      });
      expect(res.text).not.toContain(token.slice(record.prefix.length));
    });

    it('records the use through the token.touch job on the BullMQ worker', async () => {
      expect(rt.jobs.mode).toBe('bullmq');
      const { token, record } = await rt.tokens.create({ account: 'acme', type: 'test', scopes: ['risk:read'] });
      expect(await lastUsedAt(record.id)).toBeNull();
      const before = Date.now();
      const res = await request(rt.server!).get('/api/v1/me').set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      const used = await eventually(async () => (await lastUsedAt(record.id)) ?? undefined);
      expect(used.getTime()).toBeGreaterThanOrEqual(before);
      expect(used.getTime()).toBeLessThanOrEqual(Date.now());
    });

    it('never moves last_used_at back when a touch arrives late', async () => {
      const { record } = await rt.tokens.create({ account: 'acme', type: 'test', scopes: ['risk:read'] });
      await rt.tokens.touch(record.id, new Date('2026-03-02T10:00:00Z'));
      await rt.tokens.touch(record.id, new Date('2026-03-01T10:00:00Z'));
      expect(await lastUsedAt(record.id)).toEqual(new Date('2026-03-02T10:00:00Z'));
    });
  });

  describe('authentication errors', () => {
    let valid: string;
    beforeAll(async () => {
      valid = (await rt.tokens.create({ account: 'acme', type: 'live', scopes: ['risk:read'] })).token;
    });

    const me = () => request(rt.server!).get('/api/v1/me');

    it('answers 401 MISSING_AUTH_HEADER without an Authorization header', async () => {
      const res = await me();
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="wildfire"');
      expect(res.body.error).toMatchObject({ code: 'MISSING_AUTH_HEADER', param: null, request_id: res.headers['x-request-id'] });
      expect(res.body.error.message).toContain('Authorization: Bearer <token>');
    });

    it.each(['token', 'api_key', 'access_token', 'key', 'API_KEY'])(
      'refuses a token in the query string as ?%s= with 401 MISSING_AUTH_HEADER, even beside a valid header',
      async (name) => {
        const res = await request(rt.server!).get(`/api/v1/me?${name}=${valid}`).set('Authorization', `Bearer ${valid}`);
        expect(res.status).toBe(401);
        expect(res.body.error).toMatchObject({ code: 'MISSING_AUTH_HEADER', param: name });
        expect(res.body.error.message).toMatch(/not accepted in the query string.*Authorization: Bearer <token>/);
      },
    );

    it.each([
      ['a bare token', () => valid],
      ['the Basic scheme', () => `Basic ${Buffer.from(`acme:${valid}`).toString('base64')}`],
      ['the Token scheme', () => `Token ${valid}`],
    ])('answers 401 INVALID_API_KEY asking for Bearer to %s', async (_label, header) => {
      const res = await me().set('Authorization', header());
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
      expect(res.body.error.message).toContain('must use the Bearer scheme');
    });

    it('answers 401 INVALID_API_KEY to an unknown token', async () => {
      const res = await me().set('Authorization', 'Bearer pk_live_0000000000000000000000000000000000000000000');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="wildfire", error="invalid_token"');
      expect(res.body.error).toMatchObject({ code: 'INVALID_API_KEY', message: 'Invalid API token' });
    });

    it('answers 401 INVALID_API_KEY to a revoked token', async () => {
      const { token, record } = await rt.tokens.create({ account: 'acme', type: 'live', scopes: ['risk:read'] });
      expect((await me().set('Authorization', `Bearer ${token}`)).status).toBe(200);
      await rt.tokens.revoke(record.id);
      const res = await me().set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'INVALID_API_KEY', message: 'This API token has been revoked' });
    });

    it('answers 401 INVALID_API_KEY to an expired token', async () => {
      const { token, record } = await rt.tokens.create({ account: 'acme', type: 'live', scopes: ['risk:read'], expiresAt: new Date(Date.now() + 3_600_000) });
      const past = new Date(Date.now() - 1000);
      await rt.database.db.update(apiTokens).set({ expiresAt: past }).where(eq(apiTokens.id, record.id));
      const res = await me().set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'INVALID_API_KEY', message: `This API token expired at ${past.toISOString()}` });
    });

    it('answers 403 IP_NOT_ALLOWED from outside the token’s IP allowlist, and 200 from inside it', async () => {
      const elsewhere = await rt.tokens.create({ account: 'acme', type: 'live', scopes: ['risk:read'], ipAllowlist: ['203.0.113.0/24'] });
      const local = await rt.tokens.create({ account: 'acme', type: 'live', scopes: ['risk:read'], ipAllowlist: ['127.0.0.0/8', '::1'] });
      const refused = await me().set('Authorization', `Bearer ${elsewhere.token}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('IP_NOT_ALLOWED');
      expect((await me().set('Authorization', `Bearer ${local.token}`)).status).toBe(200);
    });
  });
});
