import request from 'supertest';
import { createTestDatabase, clearRedisPrefix, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../../runtime';
import { testConfig } from '../../__tests__/support';
import { textPdf } from './support';

/**
 * The tools need no key (interface §4.3), so a per-client limit protects them: per key
 * when one is sent, per client IP otherwise; shared through Redis by every instance.
 */
describe('the per-client rate limit of the PDF tools', () => {
  let db: TestDatabase;
  const prefix = `rl${process.pid}`;
  const runtimes: EsignRuntime[] = [];
  let pdf: Buffer;

  beforeAll(async () => {
    db = await createTestDatabase('esign_tools_rate_limit');
    pdf = await textPdf(1);
    for (let i = 0; i < 2; i++) {
      runtimes.push(
        await startEsign(
          testConfig({
            ESIGN_DATABASE_URL: db.url,
            REDIS_URL: 'redis://127.0.0.1:6379',
            QUEUE_PREFIX: `${prefix}q`,
            ESIGN_RATE_LIMIT_PREFIX: `${prefix}:rl`,
            ESIGN_TOOLS_RATE_LIMIT: '3',
            // the test client stands behind a "proxy" on loopback, so it can speak for several IPs
            TRUSTED_PROXIES: '127.0.0.1/32,::1/128',
          }),
          'api',
        ),
      );
    }
  });

  afterAll(async () => {
    for (const rt of runtimes) await rt.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    await clearRedisPrefix(`${prefix}q`);
  });

  const info = (rt: EsignRuntime, headers: Record<string, string>) => {
    const req = request(rt.server!).post('/firma/tools/info');
    for (const [k, v] of Object.entries(headers)) req.set(k, v);
    return req.attach('file', pdf, 'a.pdf');
  };

  it('counts one client IP across instances, answers 429 with Retry-After past the limit, and leaves other clients alone', async () => {
    const [a, b] = runtimes as [EsignRuntime, EsignRuntime];
    const one = { 'x-forwarded-for': '203.0.113.7' };
    const first = await info(a, one);
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2' });
    expect((await info(b, one)).status).toBe(200);
    expect((await info(a, one)).status).toBe(200);
    const refused = await info(b, one);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');

    expect((await info(a, { 'x-forwarded-for': '198.51.100.20' })).status).toBe(200);
  });

  it('gives a client that sends a valid key a budget of its own, and refuses an invalid key with 401 before counting', async () => {
    const [a] = runtimes as [EsignRuntime];
    const { key } = await a.keys.create({ tenant: 'acme' });
    const ip = { 'x-forwarded-for': '192.0.2.99' };
    for (let i = 0; i < 3; i++) expect((await info(a, ip)).status).toBe(200);
    expect((await info(a, ip)).status).toBe(429);
    const keyed = await info(a, { ...ip, authorization: `Bearer ${key}` });
    expect(keyed.status).toBe(200);
    expect(keyed.headers['x-ratelimit-remaining']).toBe('2');
    const wrong = await info(a, { ...ip, authorization: 'Bearer esk_unknown' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_API_KEY');
  });

  it('counts an IPv6 client by its /64: rotating through the addresses of one /64 shares one budget, another /64 has its own', async () => {
    const [a, b] = runtimes as [EsignRuntime, EsignRuntime];
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    expect((await info(a, from('2001:db8:77:1::1'))).status).toBe(200);
    expect((await info(b, from('2001:db8:77:1::2'))).status).toBe(200);
    expect((await info(a, from('2001:db8:77:1:ffff:eeee:dddd:3'))).status).toBe(200);
    const rotated = await info(b, from('2001:db8:77:1:1234::4'));
    expect(rotated.status).toBe(429);
    expect(rotated.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    expect((await info(a, from('2001:db8:77:2::1'))).status).toBe(200);
  });
});
