import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, expectErrorBody, shortTempDir, storeReading, testConfig } from '../__tests__/support';
import { addDays } from '../calendar';
import { runCli } from '../cli';
import { decisions } from '../decisions/tables';
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

/** The runs of consecutive days an API answer puts at very_high or extreme: where automatic decisions belong. */
function veryHighRuns(days: readonly { date: string; danger_class: string }[]): [string, string][] {
  const runs: [string, string][] = [];
  for (const d of days) {
    if (d.danger_class !== 'very_high' && d.danger_class !== 'extreme') continue;
    const last = runs[runs.length - 1];
    if (last && addDays(last[1], 1) === d.date) last[1] = d.date;
    else runs.push([d.date, d.date]);
  }
  return runs;
}

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

  it('takes automatic decisions on the forecast days at very_high or above, marked forecast, replaced with each forecast, apart from the observed ones', async () => {
    const automatic = async (code: string) =>
      (await rt.database.db.select().from(decisions).where(eq(decisions.scopeCode, code)).orderBy(asc(decisions.dateFrom))).map((d) => ({
        id: d.decisionId,
        from: d.dateFrom,
        to: d.dateTo,
        forecast: d.forecast,
        createdAt: d.createdAt,
      }));
    const history = async (query = '') => (await request(rt.server!).get(`/api/v3/decisiones?municipio_id=28079${query}`).set('Authorization', `Bearer ${live}`)).body;
    const expected = veryHighRuns((await get('28079')).body.days);
    // Hot, dry and windy days after FWI-40 codes: the recorded forecast puts Madrid at very_high or above.
    expect(expected.length).toBeGreaterThan(0);
    const first = await automatic('28079');
    expect(first.map((d) => [d.from, d.to, d.forecast])).toEqual(expected.map(([from, to]) => [from, to, true]));

    // The decision history shows them, marked, as automatic alerts; bounded by today (date_to), it does not reach them.
    const listed = (await history()).data as { date_from: string; date_to: string; origin: string; forecast: boolean; type: string; measures: string[] }[];
    expect(listed.map((d) => [d.date_from, d.date_to, d.origin, d.forecast, d.type])).toEqual(
      [...expected].reverse().map(([from, to]) => [from, to, 'automatic', true, 'alert']),
    );
    expect(listed[0]!.measures).toHaveLength(6);
    const days = new Map(((await get('28079')).body.days as { date: string; danger_class: string }[]).map((d) => [d.date, d.danger_class]));
    for (const d of listed as unknown as { date_from: string; danger_class: string }[]) expect(d.danger_class).toBe(days.get(d.date_from));
    expect((await history('&date_to=2025-07-16')).data).toEqual([]);

    // The same forecast again keeps the decisions, ids and creation; a municipality with no forecast any more loses them.
    await rt.aemetForecast!.run({ municipios: ['28079'] });
    expect(await automatic('28079')).toEqual(first);
    fake.withoutForecast.add('28079');
    try {
      await rt.aemetForecast!.run({ municipios: ['28079'] });
      expect(await automatic('28079')).toEqual([]);
    } finally {
      fake.withoutForecast.delete('28079');
    }
    await rt.aemetForecast!.run({ municipios: ['28079'] });
    expect((await automatic('28079')).map((d) => [d.from, d.to])).toEqual(expected);

    // A failure writing the decisions leaves the forecast as it was: both or neither.
    const before = await forecastOf('28079');
    await rt.database.pool.query(`DELETE FROM decisions WHERE scope_code = '28079'`);
    await rt.database.pool.query(`CREATE FUNCTION refuse_decision() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await rt.database.pool.query('CREATE TRIGGER refuse_decision BEFORE INSERT ON decisions FOR EACH ROW EXECUTE FUNCTION refuse_decision()');
    try {
      await rt.database.pool.query(`DELETE FROM forecast_days WHERE municipio_id = '28079'`);
      await expect(rt.aemetForecast!.run({ municipios: ['28079'] })).rejects.toMatchObject({ cause: expect.objectContaining({ message: 'refused for the test' }) });
      expect(await forecastOf('28079')).toEqual([]);
    } finally {
      await rt.database.pool.query('DROP TRIGGER refuse_decision ON decisions; DROP FUNCTION refuse_decision()');
    }
    await rt.aemetForecast!.run({ municipios: ['28079'] });
    expect(await forecastOf('28079')).toEqual(before);

    // Observed days keep their own decisions: an observed ingestion neither removes nor merges the forecast ones.
    const hot = join(shortTempDir(), 'hot.csv');
    writeFileSync(hot, 'municipio_id,date,temp,rh,ws,prec\n28079,2025-07-16,38,12,35,0\n');
    await rt.ingest.weather(hot);
    const after = await automatic('28079');
    // The 16th is observed at very_high or above; the forecast run starting the next day stays a decision of its own.
    expect(after.filter((d) => !d.forecast).map((d) => [d.from, d.to])).toEqual([['2025-07-16', '2025-07-16']]);
    expect(after.filter((d) => d.forecast).map((d) => [d.from, d.to])).toEqual(expected);
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
