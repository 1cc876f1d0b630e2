import { Redis } from 'ioredis';
import request from 'supertest';
import { startReceiver } from '../webhooks/__tests__/receiver';
import { samplePdf, startTestEsign, type TestEsign } from './support';

/**
 * Per-tenant budgets of the keyed routes that cost the most or reach outside: uploads,
 * signing requests (each emails an address the tenant picks, from our sender) and webhook
 * create/change/test (each resolves a name; a test POSTs). Counted in the real Redis, shared
 * by every key of the tenant; a refusal is 429 RATE_LIMIT_EXCEEDED with Retry-After and
 * leaves nothing behind.
 */
describe('per-tenant limits', () => {
  let env: TestEsign;
  let redis: Redis;
  let pdf: Buffer;
  const api = () => request(env.rt.server!);
  const upload = (key: string) => api().post('/firma/documentos').set('authorization', key).attach('file', pdf, { filename: 'a.pdf', contentType: 'application/pdf' });
  const count = async (table: string) => Number((await env.rt.database.pool.query(`select count(*)::int as n from ${table}`)).rows[0].n);

  beforeAll(async () => {
    env = await startTestEsign({
      name: 'esign_tenant_limits',
      env: { ESIGN_UPLOAD_RATE_LIMIT: '2', ESIGN_REQUEST_RATE_LIMIT: '2', ESIGN_WEBHOOK_RATE_LIMIT: '2', WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    redis = new Redis('redis://127.0.0.1:6379');
    pdf = await samplePdf({ pages: 1 });
  });

  afterAll(async () => {
    redis?.disconnect();
    await env?.close();
  });

  function expectRefused(res: request.Response): void {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', detail: expect.stringContaining('per tenant'), request_id: expect.any(String) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.headers['x-ratelimit-limit']).toBe('2');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  }

  it('caps uploads per tenant, across all its keys, in Redis; another tenant is unaffected, and a refused upload stores nothing', async () => {
    const first = await env.keyFor('upload-acme');
    const second = await env.keyFor('upload-acme');
    await upload(first).expect(200);
    await upload(second).expect(200);
    const before = await count('documents');
    expectRefused(await upload(first));
    expectRefused(await upload(second));
    expect(await count('documents')).toBe(before);
    await upload(await env.keyFor('upload-globex')).expect(200);
    // the counter lives in the shared Redis, under this service's rate-limit prefix
    expect(await redis.keys(`${env.prefix}:rl:tenant-uploads:*`)).toHaveLength(2);
  });

  it('caps signing requests per tenant: the third within the minute is refused and emails nobody', async () => {
    const key = await env.keyFor('requests-acme');
    const doc = (await upload(key).expect(200)).body;
    const create = (n: number) => api().post('/firma/solicitudes').set('authorization', key).send({ document_id: doc.document_id, signee_email: `signee${n}@example.test` });
    await create(1).expect(200);
    await create(2).expect(200);
    const requests = await count('signing_requests');
    const emails = await count('email_outbox');
    expectRefused(await create(3));
    expect(await count('signing_requests')).toBe(requests);
    expect(await count('email_outbox')).toBe(emails);
  });

  it('caps webhook create and test per tenant, so nobody makes the service resolve names and POST without bound', async () => {
    const receiver = await startReceiver();
    try {
      const key = await env.keyFor('hooks-acme');
      const created = await api().post('/firma/webhooks').set('authorization', key).send({ url: receiver.url }).expect(201);
      await api().post(`/firma/webhooks/${created.body.webhook_id}/test`).set('authorization', key).expect(200);
      const delivered = receiver.received.length;
      expectRefused(await api().post(`/firma/webhooks/${created.body.webhook_id}/test`).set('authorization', key));
      expectRefused(await api().post('/firma/webhooks').set('authorization', key).send({ url: receiver.url }));
      expect(receiver.received.length).toBe(delivered);
      expect((await api().get('/firma/webhooks').set('authorization', key)).body).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('documents the 429s, with Retry-After, in the OpenAPI document', async () => {
    const doc = (await api().get('/openapi.json').expect(200)).body;
    for (const [path, method] of [
      ['/firma/documentos', 'post'],
      ['/firma/solicitudes', 'post'],
      ['/firma/webhooks', 'post'],
      ['/firma/webhooks/{webhook_id}', 'patch'],
      ['/firma/webhooks/{webhook_id}/test', 'post'],
    ] as const) {
      const refused = doc.paths[path][method].responses['429'];
      expect(refused).toBeDefined();
      expect(refused.headers['Retry-After']).toBeDefined();
    }
  });
});

describe('the daily cap on signing requests', () => {
  let env: TestEsign;
  const api = () => request(env.rt.server!);

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_tenant_daily', env: { ESIGN_REQUEST_RATE_LIMIT: '100', ESIGN_REQUEST_DAILY_LIMIT: '2' } });
  });

  afterAll(async () => {
    await env?.close();
  });

  it('refuses the request past ESIGN_REQUEST_DAILY_LIMIT with a Retry-After of hours, not a minute', async () => {
    const key = await env.keyFor('daily-acme');
    const doc = (await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf({ pages: 1 }), { filename: 'a.pdf', contentType: 'application/pdf' }).expect(200)).body;
    const create = (n: number) => api().post('/firma/solicitudes').set('authorization', key).send({ document_id: doc.document_id, signee_email: `daily${n}@example.test` });
    await create(1).expect(200);
    await create(2).expect(200);
    const refused = await create(3);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', detail: expect.stringContaining('a day per tenant') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3_600);
  });
});
