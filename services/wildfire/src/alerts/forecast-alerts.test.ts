import { eq } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { storeReading, testConfig } from '../__tests__/support';
import { FAKE_AEMET_KEY, startFakeAemet, type FakeAemet } from '../aemet/__tests__/fake-aemet-server';
import { DANGER_CLASS_CODES, dangerClass } from '../decision-support/danger-classes';
import { forecastDays } from '../forecast/tables';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { raisedAlerts } from './tables';

/** 17:00 in Madrid on 16 July 2025: the recorded forecast (aemet/__fixtures__) was issued at 14:12 that day. */
const AFTERNOON = new Date('2025-07-16T15:00:00Z');

/** A forecast import raises alerts for the subscriptions that asked for forecast days, on a loopback AEMET and Postgres. */
describe('alerts from forecast imports', () => {
  let fake: FakeAemet;
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let live: string;
  const subscribe = (body: object) => request(rt.server!).post('/api/v1/alerts').set('Authorization', `Bearer ${live}`).send(body);

  beforeAll(async () => {
    fake = await startFakeAemet();
    db = await createTestDatabase('wildfire_forecast_alerts');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, AEMET_API_KEY: FAKE_AEMET_KEY, AEMET_BASE_URL: fake.baseUrl }), 'api', {
      clock: () => AFTERNOON,
      aemetSleep: async () => undefined,
    });
    await storeReading(rt, '28079', '2025-07-15', 20);
    live = (await rt.tokens.create({ account: 'ayto-madrid', type: 'live', scopes: ['risk:read'] })).token;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await fake?.close();
  });

  it('raises one alert per forecast day at or above the class, only for subscriptions with include_forecast, and none again on a re-import', async () => {
    const withForecast = (await subscribe({ target: { municipios: ['28079'] }, min_class: 'high', include_forecast: true })).body.subscription_id as string;
    expect((await subscribe({ target: { municipios: ['28079'] }, min_class: 'high' })).status).toBe(201);
    await rt.aemetForecast!.run({ municipios: ['28079'] });
    const days = await rt.database.db.select().from(forecastDays).where(eq(forecastDays.municipioId, '28079'));
    const expected = days.filter((d) => DANGER_CLASS_CODES.indexOf(dangerClass(d.fwi)) >= DANGER_CLASS_CODES.indexOf('high')).map((d) => [d.date, dangerClass(d.fwi)]);
    expect(expected.length).toBeGreaterThan(0);
    const raised = await rt.database.db.select().from(raisedAlerts);
    expect(raised.map((r) => [r.date, r.dangerClass]).sort()).toEqual(expected.sort());
    expect(raised.every((r) => r.subscriptionId === withForecast && r.kind === 'forecast')).toBe(true);
    expect(raised[0]!.payload).toMatchObject({ kind: 'forecast', reading: { source: 'forecast', lead_days: expect.any(Number) } });
    await rt.aemetForecast!.run({ municipios: ['28079'] });
    expect(await rt.database.db.select().from(raisedAlerts)).toHaveLength(raised.length);
    const feed = await request(rt.server!).get('/api/v1/alerts/cap').set('Authorization', `Bearer ${live}`);
    expect(feed.text.match(/<certainty>/g)).toHaveLength(raised.length);
  });
});
