import { asc, eq } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, expectErrorBody, storeReading, testConfig } from '../__tests__/support';
import { runCli } from '../cli';
import { forecastDays, forecastRuns } from '../forecast/tables';
import { step, type FwiCodes } from '../fwi';
import { provinceOf } from '../municipalities/provinces';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { AemetError } from './client';
import { dailyForecastPath } from './ingest-forecast';
import { FAKE_AEMET_KEY, startFakeAemet, type FakeAemet } from './__tests__/fake-aemet-server';

/** 17:00 in Madrid on 16 July 2025: the recorded forecast was issued at 14:12 that day. */
const AFTERNOON = new Date('2025-07-16T15:00:00Z');
/** The noon inputs forecast-noon.unit.test.ts derives from the recorded forecast, by date (the 20th has none). */
const INPUTS = [
  { date: '2025-07-16', temp: 33, rh: 22, ws: 15, prec: 0 },
  { date: '2025-07-17', temp: 35, rh: 18, ws: 20, prec: 1.6 },
  { date: '2025-07-18', temp: 36, rh: 15, ws: 25, prec: 0 },
  { date: '2025-07-19', temp: 34, rh: 19, ws: 10, prec: 5 },
  { date: '2025-07-21', temp: 27, rh: 30, ws: 30, prec: 0 },
  { date: '2025-07-22', temp: 28.25, rh: 27.5, ws: 12, prec: 0 },
];

/** The AEMET forecast importer and GET /api/v3/m1/forecast, on a loopback AEMET and Postgres. */
describe('AEMET forecast', () => {
  let fake: FakeAemet;
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let env: NodeJS.ProcessEnv;
  let live: string;
  let test: string;
  const forecastOf = (code: string) => rt.database.db.select().from(forecastDays).where(eq(forecastDays.municipioId, code)).orderBy(asc(forecastDays.date));
  const get = (code: string, token = live) => request(rt.server!).get(`/api/v3/m1/forecast?municipio_id=${code}`).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    fake = await startFakeAemet();
    db = await createTestDatabase('wildfire_aemet_forecast');
    env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent', AEMET_API_KEY: FAKE_AEMET_KEY, AEMET_BASE_URL: fake.baseUrl };
    // No station hours: the observations poll at start observes nothing, so only the three days stored below chain a forecast
    // (every municipality has its built-in point, so the recorded stations would otherwise observe hundreds).
    fake.serve('observacion/convencional/todas', []);
    rt = await startWildfire(testConfig(env), 'api', { clock: () => AFTERNOON, aemetSleep: async () => undefined });
    // Observed up to yesterday (codes FFMC 90, DMC 40, DC 300): the forecast chains from them.
    for (const code of ['01001', '28079', '41091']) await storeReading(rt, code, '2025-07-15', 20);
    live = (await rt.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] })).token;
    test = (await rt.tokens.create({ account: 'ayto', type: 'test', scopes: ['risk:read'] })).token;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await fake?.close();
  });

  it('stores D+1…D+6 with their lead days, the FWI chained from the last observed codes through today', async () => {
    const result = await rt.aemetForecast!.run({ municipios: ['28079'] });
    expect(result).toMatchObject({ processed: 1, written: 1, without_observation: 0, without_forecast: 0 });
    const rows = await forecastOf('28079');
    expect(rows.map((r) => [r.date, r.leadDays])).toEqual([
      ['2025-07-17', 1],
      ['2025-07-18', 2],
      ['2025-07-19', 3],
      ['2025-07-21', 5],
      ['2025-07-22', 6],
    ]);
    // By hand: the FWI System day by day from the stored codes, the 20th (no forecast humidity) carried over.
    const lat = (await rt.municipalities.locations()).get('28079')!.lat ?? provinceOf('28079')!.lat;
    let state: FwiCodes = { ffmc: 90, dmc: 40, dc: 300 };
    const expected = INPUTS.map((w) => (state = { ...step(state, w, lat, 7), date: w.date } as FwiCodes & { date: string }));
    for (const row of rows) {
      const day = expected.find((e) => (e as unknown as { date: string }).date === row.date)! as unknown as { ffmc: number; dc: number; fwi: number };
      expect(row).toMatchObject({ ffmc: expect.closeTo(day.ffmc, 9), dc: expect.closeTo(day.dc, 9), fwi: expect.closeTo(day.fwi, 9) });
    }
    expect(rows.find((r) => r.date === '2025-07-17')).toMatchObject({ temp: 35, rh: 18, ws: 20, prec: 1.6, precFrom: 'hourly' });
  });

  it('answers the stored forecast on GET /api/v3/m1/forecast, and 404 FORECAST_NOT_AVAILABLE where none is stored', async () => {
    const res = await get('28079');
    expect(res.status).toBe(200);
    const rows = await forecastOf('28079');
    expect(res.body).toEqual({
      municipio_id: '28079',
      issued_at: '2025-07-16T12:12:40.000Z',
      source: 'aemet_forecast',
      days: rows.map((r) => ({
        date: r.date,
        lead_days: r.leadDays,
        risk_score: expect.any(Number),
        risk_label: expect.stringMatching(/^(LOW|MEDIUM|HIGH)$/),
        fwi: Number(r.fwi.toFixed(4)),
        danger_class: expect.any(String),
        temp: r.temp,
        rh: r.rh,
        ws: r.ws,
        prec: r.prec,
      })),
    });
    expect(res.headers['x-ratelimit-limit']).toBe('100');
    expectErrorBody(await get('41091'), 404, 'FORECAST_NOT_AVAILABLE', 'municipio_id');
    expectErrorBody(await get('99999'), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
    expectErrorBody(await get('2807'), 400, 'INVALID_PARAM_FORMAT', 'municipio_id');
    const doc = (await request(rt.server!).get('/openapi.json')).body;
    expect(doc.paths['/api/v3/m1/forecast'].get).toMatchObject({ operationId: 'getRiskForecast', tags: ['risk'], security: [{ BearerToken: ['risk:read'] }] });
    expect(Object.keys(doc.paths['/api/v3/m1/forecast'].get.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '429']));
    // m1 itself keeps refusing the future.
    const future = await request(rt.server!).get('/api/v3/m1?municipio_id=28079&date_from=2025-07-17').set('Authorization', `Bearer ${live}`);
    expectErrorBody(future, 422, 'DATE_OUT_OF_RANGE', 'date_from');
  });

  it('gives test tokens six synthetic days', async () => {
    const res = await get('41091', test);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'synthetic', issued_at: '2025-07-15T22:00:00.000Z' });
    expect(res.body.days.map((d: { date: string; lead_days: number }) => [d.date, d.lead_days])).toEqual(
      ['2025-07-17', '2025-07-18', '2025-07-19', '2025-07-20', '2025-07-21', '2025-07-22'].map((d, i) => [d, i + 1]),
    );
    expect(await get('41091', test).then((r) => r.body)).toEqual(res.body);
  });

  it('resumes a run stopped by AEMET after the last municipality written, fetching and writing nothing twice', async () => {
    fake.withoutForecast.add('41091');
    fake.failNext(dailyForecastPath('28079'), 'http429', 'http429', 'http429', 'http429');
    fake.requests.length = 0;
    await expect(rt.aemetForecast!.run()).rejects.toBeInstanceOf(AemetError);
    const [stopped] = await rt.database.db.select().from(forecastRuns);
    expect(stopped).toMatchObject({ issuedOn: '2025-07-16', cursor: '01001', done: 1, finishedAt: null });
    expect(await forecastOf('01001')).toHaveLength(5);

    const resumed = await rt.aemetForecast!.run();
    expect(resumed).toMatchObject({ resumed_after: '01001', written: 1, without_forecast: 1 });
    expect(fake.requests.filter((p) => p === `/opendata/api/${dailyForecastPath('01001')}`)).toHaveLength(1);
    expect(await forecastOf('01001')).toHaveLength(5);
    expect(await forecastOf('28079')).toHaveLength(5);
    expect(await forecastOf('41091')).toEqual([]);
    const [finished] = await rt.database.db.select().from(forecastRuns);
    expect(finished).toMatchObject({ cursor: '41091', done: 3, finishedAt: expect.any(Date) });
    // The daily job runs the same use case: the day's run is done.
    expect(await rt.jobs.queue.enqueueAndWait('aemet.forecast', {}, { timeoutMs: 30_000 })).toMatchObject({ issued_on: '2025-07-16', already_done: true });
  });

  it('`wildfire ingest aemet-forecast` refuses bad codes and runs without a key only to say so', async () => {
    const cli = async (argv: string[], extra: NodeJS.ProcessEnv = {}) => {
      const output = captureOutput();
      const code = await runCli(argv, output.out, { ...env, ...extra });
      return { code, stderr: output.stderr.join('\n'), stdout: output.stdout.join('\n') };
    };
    expect(await cli(['ingest', 'aemet-forecast', '--municipios', '2807'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/5-digit INE codes/) });
    expect(await cli(['ingest', 'aemet-forecast', '--municipios', '99999'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown municipalities: 99999; nothing was loaded/) });
    expect(await cli(['ingest', 'aemet-forecast'], { AEMET_API_KEY: '' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/AEMET_API_KEY is not set/) });
  });
});
