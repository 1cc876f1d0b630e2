import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, eventually, REDIS_URL, testConfig, uniquePrefix } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { monthInSpain } from './service';

const M1 = '/api/v3/m1?municipio_id=28079&date_from=2025-07-01&date_to=2025-07-02';

/** Rate limits and metering over HTTP, on real Postgres and Redis. */
describe('rate limits and usage on Postgres and Redis', () => {
  let db: TestDatabase;
  let a: WildfireRuntime;
  let b: WildfireRuntime;
  const prefix = uniquePrefix();
  let now: Date | null = null;
  const clock = () => now ?? new Date();

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_limits');
    // Two API instances on one database and one Redis, as behind the gateway.
    const env = { WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix };
    a = await startWildfire(testConfig(env), 'api', { clock });
    b = await startWildfire(testConfig(env), 'api');
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  afterEach(() => {
    now = null;
  });

  const live = async (account = 'ayto', monthlyQuota?: number) => (await a.tokens.create({ account, type: 'live', scopes: ['risk:read'], monthlyQuota })).token;
  const get = (rt: WildfireRuntime, path: string, token: string) => request(rt.server!).get(path).set('Authorization', `Bearer ${token}`);

  it('counts a live token’s m1 requests, each response carrying X-RateLimit-Limit, -Remaining and -Reset as integers', async () => {
    const token = await live();
    const before = Math.floor(Date.now() / 1000);
    const first = await get(a, M1, token);
    const second = await get(a, M1, token);
    expect(first.status).toBe(200);
    expect([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual(['100', '99']);
    expect(second.headers['x-ratelimit-remaining']).toBe('98');
    const reset = first.headers['x-ratelimit-reset'];
    expect(reset).toMatch(/^\d+$/);
    expect(Number(reset)).toBeGreaterThanOrEqual(before + 59);
    expect(Number(reset)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
  });

  it('counts refused requests too: an error answer carries the headers', async () => {
    const token = await live();
    const res = await get(a, '/api/v3/m1?municipio_id=123', token);
    expect(res.status).toBe(400);
    expect(res.headers['x-ratelimit-remaining']).toBe('99');
  });

  it('answers the 101st request of a minute with 429 RATE_LIMIT_EXCEEDED, Retry-After and the error envelope', async () => {
    const token = await live();
    for (let i = 0; i < 100; i++) expect((await get(a, M1, token)).status).toBe(200);
    const res = await get(a, M1, token);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.stringMatching(/^Rate limit of 100 requests per minute/), param: null, request_id: res.headers['x-request-id'] },
    });
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual(['100', '0']);
    // Another token of the same account has a budget of its own.
    expect((await get(a, M1, await live())).status).toBe(200);
  });

  it('shares one budget between two instances on one Redis', async () => {
    const token = await live();
    for (let i = 0; i < 50; i++) {
      expect((await get(a, M1, token)).status).toBe(200);
      expect((await get(b, M1, token)).status).toBe(200);
    }
    const refusedOnA = await get(a, M1, token);
    const refusedOnB = await get(b, M1, token);
    expect([refusedOnA.status, refusedOnB.status]).toEqual([429, 429]);
    expect(refusedOnB.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('counts a whole-area read once against the data budget and the month, and once against the whole-area budget, shared by both instances', async () => {
    const token = await live('cecop');
    const TERRITORY = '/api/v3/m1/territorio?province=41&date=2025-07-01';
    for (let i = 0; i < 5; i++) {
      const res = await get(i % 2 ? a : b, TERRITORY, token);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(99 - i));
    }
    for (let i = 0; i < 5; i++) expect((await get(i % 2 ? a : b, '/api/v3/resumen?date=2025-07-01', token)).status).toBe(200);
    const refused = await get(a, TERRITORY, token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', message: expect.stringMatching(/^Rate limit of 10 territory requests per minute/) });
    expect([refused.headers['x-ratelimit-limit'], refused.headers['x-ratelimit-remaining']]).toEqual(['10', '0']);
    // The refused request took nothing from the data budget, and m1 goes on.
    const m1 = await get(b, M1, token);
    expect(m1.status).toBe(200);
    expect(m1.headers['x-ratelimit-remaining']).toBe('89');
    await a.limits.flushUsage();
    await b.limits.flushUsage();
    expect((await get(a, '/api/v1/me', token)).body.usage.requests).toBe(11);
  });

  it('never counts or meters test tokens', async () => {
    const { token } = await a.tokens.create({ account: 'sandbox', type: 'test', scopes: ['risk:read'], monthlyQuota: 1 });
    for (let i = 0; i < 105; i++) {
      const res = await get(i % 2 ? a : b, M1, token);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const me = await get(a, '/api/v1/me', token);
    expect(me.body).toMatchObject({ rate_limits: null, usage: null });
  });

  it('shows the token’s window and the account’s month in /me without counting the call', async () => {
    const token = await live('ayto-me');
    const other = await live('ayto-me');
    await get(a, M1, token);
    await get(b, M1, token);
    await get(a, M1, other);
    const me = await get(b, '/api/v1/me', token);
    expect(me.status).toBe(200);
    expect(me.headers['x-ratelimit-limit']).toBeUndefined();
    expect(me.body.rate_limits).toEqual({
      data: { limit: 100, remaining: 98, reset: expect.any(Number), window_seconds: 60 },
      reports: { limit: 10, remaining: 10, reset: null, window_seconds: 60 },
      territory: { limit: 10, remaining: 10, reset: null, window_seconds: 60 },
    });
    expect(me.body.usage).toEqual({ month: monthInSpain(new Date()), requests: 3, quota: null, remaining: null });
    expect((await get(a, '/api/v1/me', token)).body.rate_limits.data.remaining).toBe(98);
  });

  it('shows in /me exactly the requests served, before and after both instances flush to account_usage', async () => {
    const token = await live('ayto-flush');
    for (let i = 0; i < 4; i++) expect((await get(i % 2 ? a : b, M1, token)).status).toBe(200);
    const usage = async () => (await get(a, '/api/v1/me', token)).body.usage.requests;
    expect(await usage()).toBe(4);
    await Promise.all([a.limits.flushUsage(), b.limits.flushUsage()]);
    expect(await usage()).toBe(4);
    const { rows } = await a.database.pool.query<{ requests: number }>(
      "SELECT u.requests FROM account_usage u JOIN accounts a ON a.id = u.account_id WHERE a.name = 'ayto-flush'",
    );
    expect(rows).toEqual([{ requests: 4 }]);
    expect((await get(b, M1, token)).status).toBe(200);
    expect(await usage()).toBe(5);
  });

  it('answers 429 QUOTA_EXCEEDED to every live token of an account once its monthly quota is spent, until the month ends', async () => {
    now = new Date('2026-03-31T12:00:00Z');
    const token = await live('ayto-quota', 3);
    const sibling = await live('ayto-quota');
    for (let i = 0; i < 3; i++) expect((await get(a, M1, i === 1 ? sibling : token)).status).toBe(200);
    const refused = await get(a, M1, token);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', message: expect.stringContaining('monthly quota of 3 requests is spent for 2026-03') });
    // Madrid is on summer time (UTC+2) on 1 April: the month ends at 22:00 UTC on 31 March.
    expect(refused.headers['retry-after']).toBe(String(10 * 3600));
    expect((await get(a, M1, sibling)).body.error.code).toBe('QUOTA_EXCEEDED');
    expect((await get(a, '/api/v1/me', token)).body.usage).toEqual({ month: '2026-03', requests: 3, quota: 3, remaining: 0 });

    now = new Date('2026-03-31T22:00:00Z');
    expect((await get(a, M1, token)).status).toBe(200);
    expect((await get(a, '/api/v1/me', token)).body.usage).toEqual({ month: '2026-04', requests: 1, quota: 3, remaining: 2 });
  });

  it('sets the account’s quota when a token is created with one', async () => {
    const token = await live('ayto-raise', 1);
    expect((await get(a, M1, token)).status).toBe(200);
    expect((await get(a, M1, token)).status).toBe(429);
    await a.tokens.create({ account: 'ayto-raise', type: 'live', scopes: ['risk:read'], monthlyQuota: 5 });
    expect((await get(a, M1, token)).status).toBe(200);
  });
});

/** A TCP relay to the test Redis that can be cut and restored, to take Redis away from a running service. */
async function redisRelay() {
  const sockets = new Set<Socket>();
  const serve = () =>
    createServer((client) => {
      const upstream = connect(6379, '127.0.0.1');
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
  let server: Server = serve().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      server.close();
      for (const s of sockets) s.destroy();
    },
    async restore() {
      server = serve().listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    async close() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

describe('rate limits when Redis is unreachable', () => {
  it('answers counted endpoints 503 SERVICE_UNAVAILABLE instead of serving them uncounted, and counts again once Redis is back', async () => {
    const db = await createTestDatabase('wildfire_limits_down');
    const relay = await redisRelay();
    const prefix = uniquePrefix();
    const rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL: relay.url, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'api');
    try {
      const { token } = await rt.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] });
      const m1 = () => request(rt.server!).get(M1).set('Authorization', `Bearer ${token}`);
      expect((await m1()).status).toBe(200);

      await relay.cut();
      const refused = await eventually(async () => {
        const res = await m1();
        return res.status === 200 ? undefined : res;
      });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/Rate limiting is unavailable.*Redis.*not served/) });
      expect(refused.headers['x-ratelimit-limit']).toBeUndefined();

      await relay.restore();
      const served = await eventually(async () => {
        const res = await m1();
        return res.status === 200 ? res : undefined;
      });
      expect(served.headers['x-ratelimit-remaining']).toBe('98');
    } finally {
      await rt.close();
      await relay.close();
      await db.drop();
      await clearRedisPrefix(prefix);
    }
  });
});

describe('rate limits without Redis (embedded default)', () => {
  it('counts in process memory', async () => {
    const db = await createTestDatabase('wildfire_limits_memory');
    const rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_RATE_LIMIT_DATA: '3' }), 'api');
    try {
      expect(rt.redis).toBeUndefined();
      const { token } = await rt.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await request(rt.server!).get(M1).set('Authorization', `Bearer ${token}`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await rt.close();
      await db.drop();
    }
  });
});
