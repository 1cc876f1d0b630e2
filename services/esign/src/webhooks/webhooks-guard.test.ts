import request from 'supertest';
import { createLogger } from '@firma-riesgo/service-kit';
import { captureLogLines, createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { testConfig } from '../__tests__/support';
import { startEsign, type EsignRuntime } from '../runtime';

/** The outbound guard at creation, with the production defaults (no private targets, https only). */
describe('webhook URLs a tenant may not register', () => {
  let db: TestDatabase;
  let rt: EsignRuntime;
  let key: string;
  const logs = captureLogLines();

  beforeAll(async () => {
    db = await createTestDatabase('esign_webhooks_guard');
    const logger = createLogger({ service: 'esign', level: 'info', destination: logs.destination });
    rt = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url, NODE_ENV: 'production' }), 'api', { logger });
    key = (await rt.keys.create({ tenant: 'acme' })).key;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it.each([
    ['loopback', 'https://127.0.0.1/hook', 'url_private'],
    ['a name resolving to loopback', 'https://localhost/hook', 'url_private'],
    ['RFC 1918', 'https://10.0.0.7/hook', 'url_private'],
    ['cloud metadata (link-local)', 'https://169.254.169.254/latest/meta-data', 'url_private'],
    ['CGNAT', 'https://100.64.1.1/hook', 'url_private'],
    ['IPv6 ULA', 'https://[fd00::1]/hook', 'url_private'],
    ['IPv6 loopback', 'https://[::1]/hook', 'url_private'],
    ['plain http in production', 'http://8.8.8.8/hook', 'url_scheme'],
    ['another scheme', 'file:///etc/passwd', 'url_scheme'],
  ])('refuses %s with 422 at url', async (_what, url, type) => {
    const res = await request(rt.server!).post('/firma/webhooks').set('authorization', key).send({ url });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type });
  });

  it('does not say which address a refused name resolves to, nor its range (no oracle of internal DNS)', async () => {
    const res = await request(rt.server!).post('/firma/webhooks').set('authorization', key).send({ url: 'https://localhost/hook' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url_private' });
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|::1|loopback/);
  });

  it('stores the signing secret encrypted even without WEBHOOK_SECRET_KEY (under the at-rest key), and says nothing of storing it in clear', async () => {
    const res = await request(rt.server!).post('/firma/webhooks').set('authorization', key).send({ url: 'https://8.8.8.8/hook' });
    expect(res.status).toBe(201);
    const secret = res.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const { rows } = await rt.database.pool.query<{ secret: string }>('select secret from webhooks where id = $1', [res.body.webhook_id ?? res.body.id]);
    expect(rows[0]!.secret).toMatch(/^enc:v1:/);
    expect(rows[0]!.secret).not.toContain(secret.slice('whsec_'.length));
    expect(logs.lines.filter((line) => line.includes('stored unencrypted'))).toEqual([]);
  });
});
