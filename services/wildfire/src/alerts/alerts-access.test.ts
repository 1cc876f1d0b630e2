import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startReceiver, verify } from '../../../../packages/webhooks/src/__tests__/receiver';
import { ATOM_NAMESPACE, CAP_NAMESPACE } from './cap-feed';
import { parseXml } from './__tests__/cap-samples';
import { eventually, testConfig } from '../__tests__/support';
import { addDays, eachDay, todayInSpain } from '../calendar';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { alertDeliveries, raisedAlerts } from './tables';

const HEADER = 'municipio_id,date,temp,rh,ws,prec';
/** Ten dry days from the standard start values: FWI about 29 on the tenth (EFFIS high). */
const HOT = '30,30,15,0';
/** One scorching day after the hot ones: FWI past 50 (extreme). */
const SCORCHING = '40,8,45,0';

type Listed = { subscription_id: string; active: boolean; webhook_disabled_at: string | null; webhook_disabled_reason: string | null };

/**
 * Issue 33, follow-up: a subscription is bounded by what its token may read when an alert is
 * raised (not only when it subscribed), and a dead receiver gets its webhook disabled. On
 * Postgres, real ingestions and real receivers on loopback; the clock is injected.
 */
describe('alerts: the token’s access at raise time, and dead receivers', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let now = new Date();
  let today: string;
  let reader: string;
  const dir = mkdtempSync(join(tmpdir(), 'wf-alerts-access-'));
  let fileNo = 0;

  async function ingest(rows: [code: string, days: string[], weather: string][]) {
    now = new Date(now.getTime() + 1000);
    const path = join(dir, `w${fileNo++}.csv`);
    writeFileSync(path, [HEADER, ...rows.flatMap(([code, days, weather]) => days.map((d) => `${code},${d},${weather}`))].join('\n') + '\n');
    return rt.ingest.weather(path);
  }
  const tenDays = () => eachDay(addDays(today, -9), today);
  const api = () => request(rt.server!);
  const subscribe = (token: string, body: object) => api().post('/api/v1/alerts').set('Authorization', `Bearer ${token}`).send(body);
  const listed = async (token: string, id: string): Promise<Listed> =>
    ((await api().get('/api/v1/alerts').set('Authorization', `Bearer ${token}`)).body.data as Listed[]).find((s) => s.subscription_id === id)!;
  const raisedFor = async (subscriptionId: string) =>
    (await rt.database.db.select().from(raisedAlerts).where(eq(raisedAlerts.subscriptionId, subscriptionId))).map((r) => `${r.municipioId}/${r.dangerClass}`).sort();
  const deliveriesOf = (subscriptionId: string) => rt.database.db.select().from(alertDeliveries).where(eq(alertDeliveries.subscriptionId, subscriptionId));

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_alerts_access');
    rt = await startWildfire(
      testConfig({
        WILDFIRE_DATABASE_URL: db.url,
        WILDFIRE_WEBHOOK_ALLOW_PRIVATE: 'true',
        WILDFIRE_WEBHOOK_ALLOW_HTTP: 'true',
        WILDFIRE_WEBHOOK_RETRY_SCHEDULE: '100ms,100ms',
        WILDFIRE_WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
        WILDFIRE_RATE_LIMIT_DATA: '1000',
      }),
      'api',
      { clock: () => now },
    );
    today = todayInSpain(now);
    reader = (await rt.tokens.create({ account: 'cecop-sevilla', type: 'live', scopes: ['risk:read'] })).token;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it('raises only what the subscribing token may read now: narrowed, it loses the rest; rotated, it keeps its subscriptions; revoked, it raises nothing', async () => {
    const a = await rt.tokens.create({ account: 'cecop-sevilla', type: 'live', scopes: ['risk:read'] });
    const b = await rt.tokens.create({ account: 'cecop-sevilla', type: 'live', scopes: ['risk:read'] });
    const province = (await subscribe(a.token, { target: { province: '41' }, min_class: 'high' })).body.subscription_id as string;
    const ecija = (await subscribe(b.token, { target: { municipios: ['41039'] }, min_class: 'high' })).body.subscription_id as string;
    await ingest([['41038', tenDays(), HOT]]);
    expect(await raisedFor(province)).toEqual(['41038/high']);

    // An operator narrows token a to Sevilla (the column the token's allowlist lives in), and revokes token b.
    await rt.database.pool.query(`UPDATE api_tokens SET municipios = '{41091}' WHERE id = $1`, [a.record.id]);
    expect(await rt.tokens.revoke(b.record.id)).not.toBeNull();
    await ingest([
      ['41091', tenDays(), HOT],
      ['41004', tenDays(), HOT],
      ['41039', tenDays(), HOT],
    ]);
    expect(await raisedFor(province)).toEqual(['41038/high', '41091/high']);
    expect(await raisedFor(ecija)).toEqual([]);
    expect(await listed(reader, province)).toMatchObject({ active: true });
    expect(await listed(reader, ecija)).toMatchObject({ active: false });

    // The feed shows what the subscribing tokens may read now: Sevilla, not the alert raised for 41038 before the narrowing.
    const feed = parseXml((await api().get('/api/v1/alerts/cap').set('Authorization', `Bearer ${reader}`)).text);
    const geocodes = Array.from(feed.getElementsByTagNameNS(ATOM_NAMESPACE, 'entry')).map(
      (e) => e.getElementsByTagNameNS(CAP_NAMESPACE, 'geocode')[0]!.getElementsByTagNameNS(CAP_NAMESPACE, 'value')[0]!.textContent,
    );
    expect(geocodes).toEqual(['41091']);

    // Rotated (no grace), the subscription follows the replacement token, with the same narrowed list.
    expect(await rt.tokens.rotate(a.record.id, 0)).not.toBeNull();
    await ingest([['41091', [today], SCORCHING], ['41004', [today], SCORCHING]]);
    expect(await raisedFor(province)).toEqual(['41038/high', '41091/extreme', '41091/high']);
  });

  it('a subscription whose token lost the scope risk:read raises nothing', async () => {
    const c = await rt.tokens.create({ account: 'cecop-sevilla', type: 'live', scopes: ['risk:read'] });
    const id = (await subscribe(c.token, { target: { municipios: ['41011'] }, min_class: 'high' })).body.subscription_id as string;
    await rt.database.pool.query(`UPDATE api_tokens SET scopes = '{}' WHERE id = $1`, [c.record.id]);
    await ingest([['41011', tenDays(), HOT]]);
    expect(await raisedFor(id)).toEqual([]);
    expect(await listed(reader, id)).toMatchObject({ active: false });
  });

  it('a receiver answering 410 Gone has the webhook disabled, reported in the listing; rotating the secret re-enables it', async () => {
    const receiver = await startReceiver();
    try {
      receiver.answer({ status: 410 });
      const created = await subscribe(reader, { target: { municipios: ['28079', '28005'] }, min_class: 'high', webhook_url: receiver.url });
      const id = created.body.subscription_id as string;
      expect(created.body).toMatchObject({ active: true, webhook_disabled_at: null, webhook_disabled_reason: null });
      await ingest([['28079', tenDays(), HOT]]);
      await receiver.waitFor(() => true);
      const disabled = await eventually(async () => {
        const s = await listed(reader, id);
        return s.webhook_disabled_at ? s : undefined;
      });
      expect(disabled).toMatchObject({ active: true, webhook_disabled_reason: 'The receiver answered 410 Gone' });
      expect(Date.parse(disabled!.webhook_disabled_at!)).toBeLessThanOrEqual(now.getTime());
      const [gone] = await deliveriesOf(id);
      expect(gone).toMatchObject({ status: 'exhausted', attempts: 1 });

      // Disabled: the alert is still raised (the CAP feed) but nothing is queued for the webhook.
      await ingest([['28079', [today], SCORCHING]]);
      expect(await raisedFor(id)).toEqual(['28079/extreme', '28079/high']);
      expect(await deliveriesOf(id)).toHaveLength(1);

      receiver.answer({ status: 204 });
      const rotated = await api().post(`/api/v1/alerts/${id}/rotate-secret`).set('Authorization', `Bearer ${reader}`);
      expect(rotated.status).toBe(200);
      expect(await listed(reader, id)).toMatchObject({ webhook_disabled_at: null, webhook_disabled_reason: null });
      await ingest([['28005', tenDays(), HOT]]);
      const [arrived] = await receiver.waitFor((m) => (m.json.data as { municipio_id: string }).municipio_id === '28005');
      expect(verify(rotated.body.webhook_secret as string, arrived!)).toEqual(arrived!.json);
    } finally {
      await receiver.close();
    }
  });

  it('a delivery that fails every attempt of the retry schedule disables the webhook', async () => {
    const receiver = await startReceiver();
    try {
      receiver.answer({ status: 500 });
      const id = (await subscribe(reader, { target: { municipios: ['08019'] }, min_class: 'high', webhook_url: receiver.url })).body.subscription_id as string;
      await ingest([['08019', tenDays(), HOT]]);
      const disabled = await eventually(async () => {
        const s = await listed(reader, id);
        return s.webhook_disabled_at ? s : undefined;
      });
      expect(disabled!.webhook_disabled_reason).toMatch(/^Every attempt of a delivery failed for the whole retry schedule \(3 attempts/);
      const [d] = await deliveriesOf(id);
      expect(d).toMatchObject({ status: 'exhausted', attempts: 3 });
      expect(receiver.received).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });
});
