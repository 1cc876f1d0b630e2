import { createSocket, type Socket } from 'node:dgram';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { testConfig } from '../__tests__/support';
import { startEsign, type EsignRuntime } from '../runtime';

/**
 * A webhook URL's name is resolved by the c-ares resolver (the queries reach the configured
 * name server; getaddrinfo on libuv's thread pool would not ask it) within
 * WEBHOOK_DNS_TIMEOUT_MS: a name server that never answers costs the tenant a 422, not a
 * request that hangs holding a thread file I/O needs.
 */
describe('webhook name resolution', () => {
  let db: TestDatabase;
  let rt: EsignRuntime;
  let silent: Socket;
  const asked: Buffer[] = [];

  beforeAll(async () => {
    silent = createSocket('udp4');
    silent.on('message', (msg) => void asked.push(msg));
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    db = await createTestDatabase('esign_webhooks_dns');
    rt = await startEsign(
      testConfig({ ESIGN_DATABASE_URL: db.url, WEBHOOK_DNS_SERVERS: `127.0.0.1:${silent.address().port}`, WEBHOOK_DNS_TIMEOUT_MS: '300' }),
      'api',
    );
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('asks the configured name server, gives up at the deadline, and answers 422 url_resolve', async () => {
    const key = (await rt.keys.create({ tenant: 'acme' })).key;
    const res = await request(rt.server!).post('/firma/webhooks').set('authorization', key).send({ url: 'https://hooks.example.test/in' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url_resolve' });
    expect(res.body.detail[0].msg).toContain('ETIMEOUT');
    // the A and AAAA queries for the name reached our server (labels are length-prefixed in DNS packets)
    expect(asked.some((packet) => packet.includes(Buffer.from('\u0005hooks\u0007example\u0004test', 'latin1')))).toBe(true);
    expect((await request(rt.server!).get('/firma/webhooks').set('authorization', key)).body).toEqual([]);
  });
});
