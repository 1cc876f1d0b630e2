import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { XMLSerializer } from '@xmldom/xmldom';
import { startReceiver, verify, type Received } from '../../../../packages/webhooks/src/__tests__/receiver';
import { ATOM_NAMESPACE, CAP_NAMESPACE } from './cap-feed';
import { parseXml } from './__tests__/cap-samples';
import { validate } from './__tests__/xmllint';
import { eventually, expectErrorBody, testConfig } from '../__tests__/support';
import { addDays, eachDay, todayInSpain } from '../calendar';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { alertDeliveries, raisedAlerts } from './tables';

const HEADER = 'municipio_id,date,temp,rh,ws,prec';
/** Ten dry days from the standard start values: FWI about 29 on the tenth (EFFIS high). */
const HOT = '30,30,15,0';
/** The same ten days, milder: FWI about 16 (moderate). */
const MILD = '25,40,10,0';
/** One scorching day after the hot ones: FWI past 50 (extreme). */
const SCORCHING = '40,8,45,0';

type Alert = { municipio_id: string; date: string; kind: string; danger_class: string; reading: { fwi: number }; links: { m3: string }; municipality: string };

/**
 * Alerts end to end on Postgres: subscriptions over the API, ingestions of observed days
 * raising alerts, and their webhooks reaching a real receiver on loopback, verified with
 * the Standard Webhooks reference library. The clock is injected (near real time, as the
 * library refuses timestamps more than five minutes off).
 */
describe('alerts pushed to subscribers', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let live: string;
  let today: string;
  let now = new Date();
  const dir = mkdtempSync(join(tmpdir(), 'wf-alerts-'));
  let fileNo = 0;

  /** Ingests `weather` (a HOT/MILD/... row) for each code on each day, through the CLI's use case. */
  async function ingest(rows: [code: string, days: string[], weather: string][]) {
    const lines = rows.flatMap(([code, days, weather]) => days.map((d) => `${code},${d},${weather}`));
    // Each load a second later: the feed orders alerts by when they were raised.
    now = new Date(now.getTime() + 1000);
    const path = join(dir, `w${fileNo++}.csv`);
    writeFileSync(path, [HEADER, ...lines].join('\n') + '\n');
    return rt.ingest.weather(path);
  }
  const api = () => request(rt.server!);
  const post = (body: unknown, token = live) => api().post('/api/v1/alerts').set('Authorization', `Bearer ${token}`).send(body as object);
  const count = async (table: typeof raisedAlerts | typeof alertDeliveries) => (await rt.database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;
  const alertOf = (m: Received) => m.json.data as unknown as Alert;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_alerts');
    receiver = await startReceiver();
    rt = await startWildfire(
      testConfig({
        WILDFIRE_DATABASE_URL: db.url,
        WILDFIRE_WEBHOOK_ALLOW_PRIVATE: 'true',
        WILDFIRE_WEBHOOK_ALLOW_HTTP: 'true',
        WILDFIRE_WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms',
        WILDFIRE_WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
        WILDFIRE_ALERT_SUBSCRIPTIONS_MAX: '3',
        WILDFIRE_RATE_LIMIT_DATA: '1000',
      }),
      'api',
      { clock: () => now },
    );
    today = todayInSpain(now);
    live = (await rt.tokens.create({ account: 'cecop-sevilla', type: 'live', scopes: ['risk:read'] })).token;
  });

  afterAll(async () => {
    await rt?.close();
    await receiver?.close();
    await db?.drop();
  });

  let secret: string;
  let subscriptionId: string;

  it('creates a subscription with its webhook secret shown once, lists it without it, and stores the secret sealed', async () => {
    const res = await post({ target: { province: '41' }, min_class: 'high', webhook_url: receiver.url });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ target: { province: '41' }, min_class: 'high', include_forecast: false, webhook_url: receiver.url, municipalities: 106 });
    expect(res.body.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    ({ webhook_secret: secret, subscription_id: subscriptionId } = res.body);
    const listed = await api().get('/api/v1/alerts').set('Authorization', `Bearer ${live}`);
    expect(listed.status).toBe(200);
    const { webhook_secret: _shown, ...record } = res.body as Record<string, unknown>;
    expect(listed.body.data).toEqual([record]);
    const stored = await rt.database.pool.query<{ secret: string }>('SELECT secret FROM alert_subscriptions');
    expect(stored.rows[0]!.secret).toMatch(/^enc:v1:/);
    expect(JSON.stringify(stored.rows)).not.toContain(secret.slice(6));
  });

  it('an ingestion that takes three municipalities over the threshold sends exactly three alerts, each signed', async () => {
    const days = eachDay(addDays(today, -9), today);
    await ingest([
      ['41091', days, HOT],
      ['41004', days, HOT],
      ['41038', days, HOT],
      ['41011', days, MILD],
    ]);
    const messages = await receiver.waitFor(() => true, 3);
    expect(await count(alertDeliveries)).toBe(3);
    for (const m of messages) expect(verify(secret, m)).toEqual(m.json);
    const alerts = messages.map(alertOf).sort((a, b) => a.municipio_id.localeCompare(b.municipio_id));
    expect(alerts.map((a) => [a.municipio_id, a.date, a.kind, a.danger_class])).toEqual([
      ['41004', today, 'observed', 'high'],
      ['41038', today, 'observed', 'high'],
      ['41091', today, 'observed', 'high'],
    ]);
    const sevilla = alerts.find((a) => a.municipio_id === '41091')!;
    expect(sevilla.municipality).toBe('Sevilla');
    expect(sevilla.links.m3).toBe(`/api/v3/m3?municipio_id=41091&date=${today}`);
    const m1 = await api().get(`/api/v3/m1?municipio_id=41091&date_from=${today}&date_to=${today}`).set('Authorization', `Bearer ${live}`);
    expect(sevilla.reading).toEqual(m1.body.data[0]);
    expect(messages.every((m) => m.json.type === 'wildfire.alert')).toBe(true);
    expect(new Set(messages.map((m) => m.headers['webhook-id'])).size).toBe(3);
  });

  it('re-ingesting the same day raises nothing and sends nothing', async () => {
    const days = eachDay(addDays(today, -9), today);
    await ingest([
      ['41091', days, HOT],
      ['41004', days, HOT],
      ['41038', days, HOT],
      ['41011', days, MILD],
    ]);
    expect(await count(raisedAlerts)).toBe(3);
    expect(await count(alertDeliveries)).toBe(3);
  });

  it('a higher class on the same day sends one more alert', async () => {
    await ingest([['41091', [today], SCORCHING]]);
    expect(await count(raisedAlerts)).toBe(4);
    const [higher] = await receiver.waitFor((m) => alertOf(m).danger_class === 'extreme');
    expect(alertOf(higher!)).toMatchObject({ municipio_id: '41091', date: today, danger_class: 'extreme' });
    expect(verify(secret, higher!)).toEqual(higher!.json);
  });

  it('a backfill of old days raises nothing, however hot', async () => {
    await ingest([['41039', eachDay(addDays(today, -40), addDays(today, -30)), SCORCHING]]);
    expect(await count(raisedAlerts)).toBe(4);
    // Yesterday, loaded again scorching where today is stored already: a backfill too.
    await ingest([['41004', [addDays(today, -1)], SCORCHING]]);
    expect(await count(raisedAlerts)).toBe(4);
  });

  it('while the receiver is down the delivery is retried, and arrives once it is back: nothing lost', async () => {
    await receiver.down();
    await ingest([['41039', eachDay(addDays(today, -9), today), HOT]]);
    const [row] = await rt.database.db.select().from(raisedAlerts).where(eq(raisedAlerts.municipioId, '41039'));
    const failing = await eventually(async () => {
      const [d] = await rt.database.db.select().from(alertDeliveries).where(eq(alertDeliveries.alertId, row!.id));
      return d!.attempts >= 2 ? d : undefined;
    });
    expect(failing!.status).toBe('failed');
    expect(failing!.log[0]).toMatchObject({ status_code: null, error: expect.stringContaining('ECONNREFUSED') });
    await receiver.up();
    const [arrived] = await receiver.waitFor((m) => alertOf(m).municipio_id === '41039');
    expect(verify(secret, arrived!)).toEqual(arrived!.json);
    const delivered = await eventually(async () => {
      const all = await rt.database.db.select().from(alertDeliveries);
      return all.every((d) => d.status === 'succeeded') ? all : undefined;
    });
    // Every raised alert was delivered, each under its own webhook-id, and the receiver saw each id.
    expect(delivered).toHaveLength(await count(raisedAlerts));
    expect(new Set(receiver.received.map((m) => m.headers['webhook-id']))).toEqual(new Set(delivered.map((d) => `msg_${d.id}`)));
    // The delivery log answers the failed attempts, then the one that got through.
    const log = await api().get(`/api/v1/alerts/${subscriptionId}/deliveries`).set('Authorization', `Bearer ${live}`);
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(delivered.length);
    const ecija = (log.body.data as { municipio_id: string; status: string; attempts: number; log: { status_code: number | null }[]; webhook_id: string }[]).find((d) => d.municipio_id === '41039')!;
    expect(ecija).toMatchObject({ status: 'succeeded', webhook_id: arrived!.headers['webhook-id'] });
    expect(ecija.log.map((a) => a.status_code)).toEqual([...Array(ecija.attempts - 1).fill(null), 204]);
  });

  it('serves the account’s raised alerts as a CAP 1.2 Atom feed, newest first, each message valid against the OASIS schema', async () => {
    const res = await api().get('/api/v1/alerts/cap?lang=en').set('Authorization', `Bearer ${live}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const doc = parseXml(res.text);
    const raised = await rt.database.db.select().from(raisedAlerts);
    // Alerts of one load share their instant; the id orders them then.
    const newestFirst = raised.sort((a, b) => b.raisedAt.getTime() - a.raisedAt.getTime() || b.id.localeCompare(a.id)).map((r) => `urn:uuid:${r.id}`);
    const entries = Array.from(doc.getElementsByTagNameNS(ATOM_NAMESPACE, 'entry'));
    expect(entries.map((e) => e.getElementsByTagNameNS(ATOM_NAMESPACE, 'id')[0]!.textContent)).toEqual(newestFirst);
    // The newest: Écija, raised after the outage; the one before it Sevilla's extreme day.
    expect(entries[1]!.getElementsByTagNameNS(CAP_NAMESPACE, 'severity')[0]!.textContent).toBe('Extreme');
    expect(entries[0]!.getElementsByTagNameNS(CAP_NAMESPACE, 'areaDesc')[0]!.textContent).toBe('Écija');
    const cap = Array.from(doc.getElementsByTagNameNS(CAP_NAMESPACE, 'alert')).map((a) => new XMLSerializer().serializeToString(a));
    expect(cap[0]).toContain('<language>en-GB</language>');
    const result = await validate(cap);
    expect(result.stderr.match(/ validates/g)).toHaveLength(raised.length);
    expect(result.code).toBe(0);
    const limited = await api().get('/api/v1/alerts/cap?limit=2').set('Authorization', `Bearer ${live}`);
    expect(parseXml(limited.text).getElementsByTagNameNS(ATOM_NAMESPACE, 'entry')).toHaveLength(2);
    expect(limited.text).not.toContain('en-GB');
    expectErrorBody(await api().get('/api/v1/alerts/cap?limit=500').set('Authorization', `Bearer ${live}`), 400, 'INVALID_PARAM_FORMAT', 'limit');
  });

  it('rotating the secret signs with both secrets for a day: a receiver with either verifies', async () => {
    const res = await api().post(`/api/v1/alerts/${subscriptionId}/rotate-secret`).set('Authorization', `Bearer ${live}`);
    expect(res.status).toBe(200);
    const rotated = res.body.webhook_secret as string;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(Date.parse(res.body.previous_secret_expires_at) - now.getTime()).toBe(24 * 3_600_000);
    await ingest([['41011', [today], SCORCHING]]);
    const [m] = await receiver.waitFor((x) => alertOf(x).municipio_id === '41011');
    expect(m!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(rotated, m!)).toEqual(m!.json);
    expect(verify(secret, m!)).toEqual(m!.json);
    secret = rotated;
  });

  it('deleting a subscription removes it with its raised alerts; another account cannot see or delete it', async () => {
    const other = (await rt.tokens.create({ account: 'otra-cuenta', type: 'live', scopes: ['risk:read'] })).token;
    expect((await api().get('/api/v1/alerts').set('Authorization', `Bearer ${other}`)).body).toEqual({ data: [] });
    const refused = await api().delete(`/api/v1/alerts/${subscriptionId}`).set('Authorization', `Bearer ${other}`);
    expectErrorBody(refused, 404, 'SUBSCRIPTION_NOT_FOUND', 'subscription_id');
    expect((await api().delete(`/api/v1/alerts/${subscriptionId}`).set('Authorization', `Bearer ${live}`)).status).toBe(204);
    expect(await count(raisedAlerts)).toBe(0);
    expect(await count(alertDeliveries)).toBe(0);
    expectErrorBody(await api().delete(`/api/v1/alerts/${subscriptionId}`).set('Authorization', `Bearer ${live}`), 404, 'SUBSCRIPTION_NOT_FOUND', 'subscription_id');
  });

  it('bounds the target by the token’s municipality list, refuses a guarded URL, and caps the subscriptions per account', async () => {
    const restricted = (await rt.tokens.create({ account: 'ayto-sevilla', type: 'live', scopes: ['risk:read'], municipios: ['41091', '41004'] })).token;
    expectErrorBody(await post({ target: { municipios: ['41091', '41039'] }, min_class: 'high' }, restricted), 403, 'INSUFFICIENT_SCOPE', 'target');
    expectErrorBody(await post({ target: { province: '28' }, min_class: 'high' }, restricted), 403, 'INSUFFICIENT_SCOPE', 'target');
    const narrowed = await post({ target: { province: '41' }, min_class: 'extreme' }, restricted);
    expect(narrowed.status).toBe(201);
    expect(narrowed.body).toMatchObject({ municipalities: 2 });
    expect(narrowed.body.webhook_secret).toBeUndefined();
    expectErrorBody(await post({ target: { municipios: ['41091'] }, min_class: 'high', webhook_url: 'ftp://127.0.0.1/hooks' }, restricted), 422, 'WEBHOOK_URL_REFUSED', 'webhook_url');
    expectErrorBody(await post({ target: { municipios: ['99999'] }, min_class: 'high' }, restricted), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
    expect((await post({ target: { municipios: ['41091'] }, min_class: 'moderate' }, restricted)).status).toBe(400);
    expect((await post({ target: { province: '41', community: '01' }, min_class: 'high' }, restricted)).status).toBe(400);
    // Four at once for the cap's last two places: two are made, two refused.
    const racing = await Promise.all(Array.from({ length: 4 }, () => post({ target: { municipios: ['41091'] }, min_class: 'high' }, restricted)));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
    expectErrorBody(racing.find((r) => r.status === 409)!, 409, 'SUBSCRIPTION_LIMIT_REACHED', null);
    expect((await api().get('/api/v1/alerts').set('Authorization', `Bearer ${restricted}`)).body.data).toHaveLength(3);
  });
});
