import { once } from 'node:events';
import { connect } from 'node:net';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { clearRedisPrefix, REDIS_URL, testConfig, uniquePrefix } from './support';

const METRICS_TOKEN = 'wildfire-metrics-token-0123456789';

/** The HTTP edge of wildfire against hostile clients, in its own error envelope. */
describe('wildfire at the HTTP edge', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let token: string;
  const prefix = uniquePrefix();

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_http_hardening');
    rt = await startWildfire(
      testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, METRICS_TOKEN, HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600' }),
      'api',
    );
    token = (await rt.tokens.create({ account: 'acme', type: 'test', scopes: ['risk:read'] })).token;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  const api = () => request(rt.server!);

  it('answers a body that is not the gzip its Content-Encoding says with 400 INVALID_CONTENT_ENCODING', async () => {
    const res = await api().post('/api/v1/me').set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"a":1}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'INVALID_CONTENT_ENCODING', message: expect.any(String), param: null, request_id: res.headers['x-request-id'] } });
  });

  it('answers an unknown Content-Encoding with 415 UNSUPPORTED_ENCODING', async () => {
    const res = await api().post('/api/v1/me').set('content-type', 'application/json').set('content-encoding', 'compress').send('{"a":1}');
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_ENCODING');
  });

  it('refuses a NUL byte in a query parameter, naming it', async () => {
    const res = await api().get('/api/v3/m1?municipio_id=28079&date_from=2024-01-01%00').set('authorization', `Bearer ${token}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAM_FORMAT', param: 'date_from' });
    expect(res.body.error.message).toContain('control characters');
  });

  it('sends nosniff on JSON and a strict, unframeable policy on /docs', async () => {
    expect((await api().get('/health')).headers['x-content-type-options']).toBe('nosniff');
    const docs = await api().get('/docs');
    expect(docs.headers['content-security-policy']).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
    expect(docs.headers['x-frame-options']).toBe('DENY');
  });

  it('opens /metrics only to the METRICS_TOKEN bearer', async () => {
    const refused = await api().get('/metrics');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHORIZED');
    expect((await api().get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`)).status).toBe(200);
  });

  it('closes a client whose body stops short (HTTP_REQUEST_TIMEOUT_MS)', async () => {
    const socket = connect((rt.server!.address() as { port: number }).port, '127.0.0.1');
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.write('POST /api/v1/me HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":');
    await once(socket, 'close');
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  }, 10_000);
});
