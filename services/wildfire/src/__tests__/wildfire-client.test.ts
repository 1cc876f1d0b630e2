import { WILDFIRE_ENDPOINTS, WildfireApiError, WildfireClient } from '@firma-riesgo/wildfire-client';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { testConfig } from './support';

/** The reference client (packages/wildfire-client) against the running service on Postgres. */
describe('@firma-riesgo/wildfire-client against the running service', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let testToken: string;
  const noWait = async () => undefined;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_client');
    // Alert webhooks to loopback (a test token's subscription never sends one).
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_WEBHOOK_ALLOW_PRIVATE: 'true' }), 'api');
    testToken = (await rt.tokens.create({ account: 'client', type: 'test', scopes: ['risk:read', 'ecosystem:read'], municipios: ['28079', '41091'] })).token;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  const client = (token = testToken) => new WildfireClient({ baseUrl: rt.url!, token, sleep: noWait });

  it('covers exactly the client operations of /openapi.json (the operator API under /api/v1/admin/ is not a client’s), with the same query parameters', async () => {
    const doc = (await (await fetch(`${rt.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; security?: unknown[] }>>;
    };
    const served = Object.entries(doc.paths)
      .filter(([path]) => !path.startsWith('/api/v1/admin/'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    const covered = Object.values(WILDFIRE_ENDPOINTS).map((e) => `${e.method} ${e.path}`);
    expect(covered.sort()).toEqual(served.sort());
    for (const endpoint of Object.values(WILDFIRE_ENDPOINTS)) {
      const op = doc.paths[endpoint.path]![endpoint.method.toLowerCase()]!;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect([endpoint.path, query.sort()]).toEqual([endpoint.path, [...endpoint.query].sort()]);
      // Public operations declare `security: []`; the others name the token.
      expect([endpoint.path, (op.security?.length ?? 0) > 0]).toEqual([endpoint.path, endpoint.auth]);
    }
  });

  it('reads health without a token', async () => {
    expect(await new WildfireClient({ baseUrl: rt.url! }).health()).toMatchObject({ service: 'wildfire', status: 'ok', database_kind: 'postgres' });
  });

  it('reads /me, the latest m1 reading and a range, typed', async () => {
    const c = client();
    const me = await c.me();
    expect(me).toMatchObject({ account: 'client', token: { type: 'test', municipios: ['28079', '41091'] }, rate_limits: null, usage: null });
    const latest = await c.m1({ municipio_id: '41091' });
    expect(latest).toMatchObject({ municipio_id: '41091', source: 'synthetic' });
    expect(latest.risk_label).toMatch(/^(LOW|MEDIUM|HIGH)$/);
    const range = await c.m1({ municipio_id: '41091', date_from: '2025-07-01', date_to: '2025-07-03' });
    expect(range.data.map((r) => r.date)).toEqual(['2025-07-01', '2025-07-02', '2025-07-03']);
  });

  it('reads the six-day forecast', async () => {
    const forecast = await client().forecast({ municipio_id: '41091' });
    expect(forecast).toMatchObject({ municipio_id: '41091', source: 'synthetic' });
    expect(forecast.days.map((d) => d.lead_days)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('reads m10 and /ecosystem', async () => {
    const c = client();
    const m10 = await c.m10({ municipio_id: '28079' });
    const detail = await c.ecosystem({ municipio_id: '28079' });
    expect(detail).toMatchObject({ ...m10, municipality: { name: 'Madrid' } });
  });

  it('throws WildfireApiError with the code, param and request id of the envelope, without retrying', async () => {
    const error = (await client()
      .m1({ municipio_id: '08019' })
      .catch((err: unknown) => err)) as WildfireApiError;
    expect(error).toBeInstanceOf(WildfireApiError);
    expect(error).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE', param: 'municipio_id', attempts: 1 });
    expect(error.requestId).toMatch(/^req_[0-9a-f]{24}$/);
    await expect(client('pk_live_0000000000000000000000000000000000000000000').me()).rejects.toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
  });

  it('creates a report, downloads it again and lists it', async () => {
    const { token } = await rt.tokens.create({ account: 'client-reports', type: 'test', scopes: ['reports:write', 'reports:read'] });
    const c = client(token);
    const created = await c.report({ municipio_id: '28079', periodo: '2024-07', format: 'csv' });
    expect(created).toMatchObject({ status: 'ready', contentType: 'text/csv; charset=utf-8' });
    if (created.status !== 'ready') throw new Error('expected the file');
    expect(Buffer.from(created.bytes).toString('utf8')).toMatch(/^date,fwi,/);
    const again = await c.reportFile(created.reportId);
    expect(again).toEqual(created);
    expect(await c.reports()).toMatchObject({ total: 1, data: [{ report_id: created.reportId, format: 'csv', status: 'ready' }] });
    await expect(c.reportFile('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'REPORT_NOT_FOUND', attempts: 1 });
  });

  it('subscribes to alerts, lists, rotates the secret, reads the CAP feed and deletes the subscription', async () => {
    const c = client();
    const created = await c.createAlert({ target: { municipios: ['41091'] }, min_class: 'very_high', webhook_url: 'https://127.0.0.1:9/hook' });
    expect(created).toMatchObject({ target: { municipios: ['41091'] }, municipalities: 1, min_class: 'very_high', include_forecast: false });
    expect(created.webhook_secret).toMatch(/^whsec_/);
    expect((await c.alerts()).map((a) => a.subscription_id)).toEqual([created.subscription_id]);
    expect((await c.rotateAlertSecret(created.subscription_id)).webhook_secret).not.toBe(created.webhook_secret);
    expect(await c.alertDeliveries(created.subscription_id, { limit: 10 })).toEqual([]);
    expect(await c.alertFeed({ lang: 'en', limit: 5 })).toContain('<feed xmlns="http://www.w3.org/2005/Atom"');
    await c.deleteAlert(created.subscription_id);
    expect(await c.alerts()).toEqual([]);
    await expect(c.deleteAlert(created.subscription_id)).rejects.toMatchObject({ status: 404, code: 'SUBSCRIPTION_NOT_FOUND', param: 'subscription_id', attempts: 1 });
  });

  it('exposes the rate-limit headers of a live token’s counted call', async () => {
    const { token } = await rt.tokens.create({ account: 'client', type: 'live', scopes: ['risk:read'] });
    const c = client(token);
    await c.m1({ municipio_id: '28079', date_from: '2025-07-01', date_to: '2025-07-02' });
    expect(c.lastRateLimit).toMatchObject({ limit: 100, remaining: 99 });
  });
});
