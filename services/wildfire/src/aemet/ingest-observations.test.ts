import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, eventually, testConfig } from '../__tests__/support';
import { runCli } from '../cli';
import { computeSeries } from '../fwi';
import { PLAIN_NOMENCLATOR } from '../municipalities/__fixtures__/nomenclator-sample';
import { readings } from '../readings/tables';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { distanceKm } from './interpolate';
import type { ObservationsRunResult } from './ingest-observations';
import { aemetObservedDays } from './tables';
import { FAKE_AEMET_KEY, fixture, startFakeAemet, type FakeAemet } from './__tests__/fake-aemet-server';

const DAY = '2025-07-16';
/** 17:00 in Madrid on the 16th: both noons (11 UTC peninsula, 12 UTC Canaries) are 2 h behind. */
const AFTERNOON = new Date('2025-07-16T15:00:00Z');
const dms = (d: number, m: number, s: number) => d + m / 60 + s / 3600;
/** The recorded inventory's stations near Madrid and their noon values on the 16th (fixtures/observaciones-todas.json). */
const MADRID_STATIONS = [
  { id: '3195', lat: dms(40, 24, 43), lon: -dms(3, 40, 41), alt: 667, ta: 31, hr: 28, vv: 2, prec: 1.6 },
  { id: '3129', lat: dms(40, 28, 0), lon: -dms(3, 33, 20), alt: 609, ta: 32, hr: 25, vv: 4, prec: 0.6 },
  { id: '3200', lat: dms(40, 17, 58), lon: -dms(3, 43, 21), alt: 620, ta: 33, hr: 22, vv: 3, prec: 2 },
  { id: '3191E', lat: dms(40, 41, 41), lon: -dms(3, 46, 0), alt: 1004, ta: 27, hr: 33, vv: 5, prec: 0 },
];
const MADRID = { lat: 40.40841191, lon: -3.68760088, alt: 657 };
/** Every station of the recorded day with all four noon inputs (the inventory's positions): Madrid's four, Santa Cruz de Tenerife and Logroño. */
const USABLE_STATIONS = [...MADRID_STATIONS, { id: 'C449C', lat: dms(28, 27, 48), lon: -dms(16, 15, 19) }, { id: '9170', lat: dms(42, 27, 8), lon: -dms(2, 19, 52) }];
/** 8,131 registry municipalities and 48916, which only the nomenclator sample has. */
const ALL_MUNICIPALITIES = 8132;

/** AEMET observations end to end: a loopback AEMET, the real queue, Postgres, m1, m3 and /health. */
describe('AEMET observed weather', () => {
  let fake: FakeAemet;
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let now = AFTERNOON;
  let env: NodeJS.ProcessEnv;
  const dir = mkdtempSync(join(tmpdir(), 'wf-aemet-'));
  const stored = (code: string) => rt.database.db.select().from(readings).where(eq(readings.municipioId, code)).orderBy(asc(readings.date));
  const cli = async (argv: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
    const output = captureOutput();
    const code = await runCli(argv, output.out, { ...env, ...extraEnv });
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  };

  beforeAll(async () => {
    fake = await startFakeAemet();
    db = await createTestDatabase('wildfire_aemet_obs');
    env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' };
    // Without a key: load the nomenclator's coordinates and a stored day, and see /health say so.
    const plain = await startWildfire(testConfig(env), 'api', { clock: () => now });
    try {
      const health = await request(plain.server!).get('/health');
      expect(health.body).not.toHaveProperty('data');
      expect(health.body).not.toHaveProperty('observed');
      writeFileSync(join(dir, 'municipios.csv'), PLAIN_NOMENCLATOR);
      await plain.ingest.municipalities(join(dir, 'municipios.csv'));
      writeFileSync(join(dir, 'weather.csv'), 'municipio_id,date,temp,rh,ws,prec\n28079,2025-07-15,34.5,20,11,0\n');
      await plain.ingest.weather(join(dir, 'weather.csv'));
    } finally {
      await plain.close();
    }
    env = { ...env, AEMET_API_KEY: FAKE_AEMET_KEY, AEMET_BASE_URL: fake.baseUrl };
    // With the key, the process that runs jobs polls at start.
    rt = await startWildfire(testConfig(env), 'api', { clock: () => now, aemetSleep: async () => undefined });
    await eventually(async () => ((await rt.database.db.select().from(aemetObservedDays)).length > 0 ? true : undefined));
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await fake?.close();
  });

  afterEach(() => {
    now = AFTERNOON;
  });

  /** The municipalities (built-in points, the nomenclator's where loaded) with a usable station within 50 km, in code order. */
  const inRange = async () =>
    (await rt.municipalities.points())
      .filter((p) => USABLE_STATIONS.some((s) => distanceKm(p.lat!, p.lon!, s.lat, s.lon) <= 50))
      .map((p) => p.ineCode)
      .sort();

  it('ingests the day at start: every municipality with a station in range gets a reading, with no operator step, the others none', async () => {
    const expected = await inRange();
    // Madrid's stations reach hundreds of municipalities by their built-in points; Sevilla and A Coruña have no station.
    expect(expected.length).toBeGreaterThan(100);
    expect(expected).toEqual(expect.arrayContaining(['01001', '28079', '28001', '38038']));
    const day = await rt.database.db.select().from(aemetObservedDays);
    expect(day).toEqual([{ date: DAY, ingestedAt: expect.any(Date), stations: 6, municipalities: expected.length, withoutStation: ALL_MUNICIPALITIES - expected.length }]);
    const withReading = await rt.database.db
      .select({ code: readings.municipioId })
      .from(readings)
      .where(eq(readings.date, DAY))
      .orderBy(asc(readings.municipioId));
    expect(withReading.map((r) => r.code)).toEqual(expected);
    expect(await stored('41091')).toEqual([]);
    expect(await stored('15030')).toEqual([]);
  });

  it('gives Madrid the inverse-distance weighted noon inputs of its four nearest complete stations, temperature moved to 657 m', async () => {
    const d = MADRID_STATIONS.map((s) => distanceKm(MADRID.lat, MADRID.lon, s.lat, s.lon));
    const raw = d.map((x) => 1 / x ** 2);
    const w = raw.map((x) => x / raw.reduce((a, b) => a + b, 0));
    const sum = (f: (s: (typeof MADRID_STATIONS)[number]) => number) => MADRID_STATIONS.reduce((a, s, i) => a + w[i]! * f(s), 0);
    const expected = {
      temp: Number(sum((s) => s.ta + (6.5 * (s.alt - MADRID.alt)) / 1000).toFixed(1)),
      rh: Number(sum((s) => s.hr).toFixed(1)),
      ws: Number(sum((s) => s.vv * 3.6).toFixed(1)),
      prec: Number(sum((s) => s.prec).toFixed(1)),
    };
    const [, day16] = await stored('28079');
    expect({ temp: day16!.temp, rh: day16!.rh, ws: day16!.ws, prec: day16!.prec }).toEqual(expected);
    // Retiro, 0.9 km away, carries 98.9% of the weight (its 31 °C at 667 m is 31.07 °C at 657 m). Ciudad Universitaria
    // (nearer than Getafe) lost an hour of rain and Alcalá its noon humidity: neither is used.
    expect(expected).toEqual({ temp: 31.1, rh: 28, ws: 7.3, prec: 1.6 });
    expect(w[0]).toBeCloseTo(0.989, 3);
  });

  it('takes the Canaries’ noon at 12 UTC', async () => {
    const [day] = await stored('38038');
    // Santa Cruz's one station, 35 m up: 27 + 6.5 × 0.034 °C, 6 m/s, 0.8 mm in the 24 h to 12 UTC.
    expect(day).toMatchObject({ date: DAY, temp: 27.2, rh: 60, ws: 21.6, prec: 0.8 });
  });

  it('continues the FWI series from the stored codes of the day before', async () => {
    const [day15, day16] = await stored('28079');
    const [expected] = computeSeries([{ temp: day16!.temp, rh: day16!.rh, ws: day16!.ws, prec: day16!.prec, lat: MADRID.lat, month: 7 }], day15!);
    expect(day16).toMatchObject({ ffmc: expect.closeTo(expected!.ffmc, 9), dmc: expect.closeTo(expected!.dmc, 9), dc: expect.closeTo(expected!.dc, 9), fwi: expect.closeTo(expected!.fwi, 9) });
  });

  it('answers the provenance in m1 and m3 for live tokens, and none for test tokens', async () => {
    const live = (await rt.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] })).token;
    const test = (await rt.tokens.create({ account: 'ayto', type: 'test', scopes: ['risk:read'] })).token;
    const m1 = await request(rt.server!).get('/api/v3/m1?municipio_id=28079').set('Authorization', `Bearer ${live}`);
    expect(m1.status).toBe(200);
    expect(m1.body.provenance).toMatchObject({ source: 'aemet_observations', method: 'idw', power: 2, max_distance_km: 50, lapse_rate_c_per_km: 6.5 });
    expect(m1.body.provenance.stations.map((s: { id: string }) => s.id)).toEqual(['3195', '3200', '3129', '3191E']);
    const weights = m1.body.provenance.stations.map((s: { weight: number }) => s.weight);
    expect(weights.reduce((a: number, b: number) => a + b, 0)).toBeCloseTo(1, 3);
    const range = await request(rt.server!).get('/api/v3/m1?municipio_id=28079&date_from=2025-07-15&date_to=2025-07-16').set('Authorization', `Bearer ${live}`);
    expect(range.body.data.map((r: { provenance?: unknown }) => r.provenance !== undefined)).toEqual([false, true]);
    const m3 = await request(rt.server!).get('/api/v3/m3?municipio_id=28079').set('Authorization', `Bearer ${live}`);
    expect(m3.status).toBe(200);
    expect(m3.body.provenance).toEqual(m1.body.provenance);
    const synthetic = await request(rt.server!).get('/api/v3/m1?municipio_id=28079').set('Authorization', `Bearer ${test}`);
    expect(synthetic.body.source).toBe('synthetic');
    expect(synthetic.body).not.toHaveProperty('provenance');
  });

  it('polls again through the queue without ingesting a day twice, riding out a 429', async () => {
    fake.failNext('observacion/convencional/todas', 'http429');
    const result = (await rt.jobs.queue.enqueueAndWait('aemet.observations', {}, { timeoutMs: 30_000 })) as ObservationsRunResult;
    expect(result).toMatchObject({ hours_stored: 216, implausible: { ta: 1, hr: 0, vv: 0, prec: 0 }, days: [] });
  });

  it('reports the newest observed day’s age on /health, and a stale feed', async () => {
    const fresh = await request(rt.server!).get('/health');
    expect(fresh.body).toMatchObject({ status: 'ok', data: 'ok', observed: { newest_day: DAY, age_days: 0 } });
    now = new Date('2025-07-18T09:00:00Z');
    const stale = await request(rt.server!).get('/health');
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({ status: 'ok', data: 'stale', observed: { newest_day: DAY, age_days: 2 } });
  });

  it('`wildfire ingest aemet-observations --date` ingests the day again, changing nothing, and lists the municipalities without a station', async () => {
    const before = await stored('28079');
    const run = await cli(['ingest', 'aemet-observations', '--date', DAY, '--json']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const [day] = (JSON.parse(run.stdout) as ObservationsRunResult).days;
    const expected = await inRange();
    expect(day).toMatchObject({ date: DAY, stations: 6, municipalities: expected.length, without_station: ALL_MUNICIPALITIES - expected.length, without_coordinates: 0 });
    // The first 20 codes without a station: Araba's, beyond Logroño's 50 km.
    expect(day!.without_station_sample).toHaveLength(20);
    expect(day!.without_station_sample.every((code) => code.startsWith('01') && !expected.includes(code))).toBe(true);
    expect(day!.station_gaps).toEqual({ no_noon_observation: 0, missing_noon_value: 1, incomplete_precipitation: 1 });
    expect(day!.readings).toMatchObject({ inserted: 0, updated: 0, unchanged: expected.length });
    expect(await stored('28079')).toEqual(before);
    const count = await rt.database.db.select({ n: sql<number>`count(*)::int` }).from(readings).where(and(eq(readings.date, DAY)));
    expect(count[0]!.n).toBe(expected.length);
  });

  it('writes a day’s readings, provenance and record together, or none of them', async () => {
    const before = await stored('28079');
    // A hotter noon at Retiro, then a failure at the last write of the day's transaction.
    const hotter = (fixture('observaciones-todas.json') as { idema: string; fint: string; ta: number }[]).map((r) =>
      r.idema === '3195' && r.fint === '2025-07-16T11:00:00' ? { ...r, ta: 35 } : r,
    );
    fake.serve('observacion/convencional/todas', hotter);
    await rt.database.pool.query(`CREATE FUNCTION refuse_day() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await rt.database.pool.query('CREATE TRIGGER refuse_day BEFORE INSERT OR UPDATE ON aemet_observed_days FOR EACH ROW EXECUTE FUNCTION refuse_day()');
    try {
      await expect(rt.aemetObservations!.run({ date: DAY })).rejects.toThrow(/refused for the test/);
      expect(await stored('28079')).toEqual(before);
    } finally {
      await rt.database.pool.query('DROP TRIGGER refuse_day ON aemet_observed_days; DROP FUNCTION refuse_day()');
    }
    await rt.aemetObservations!.run({ date: DAY });
    const [, day16] = await stored('28079');
    expect(day16!.temp).toBeGreaterThan(before[1]!.temp + 3.5);
    fake.serve('observacion/convencional/todas', fixture('observaciones-todas.json'));
    await rt.aemetObservations!.run({ date: DAY });
    expect(await stored('28079')).toEqual(before);
  });

  it('refuses the command without a key, and a day whose noon has not passed', async () => {
    expect(await cli(['ingest', 'aemet-observations'], { AEMET_API_KEY: '' })).toMatchObject({ code: 2, stderr: expect.stringMatching(/AEMET_API_KEY is not set/) });
    const future = await cli(['ingest', 'aemet-observations', '--date', '2999-01-01']);
    expect(future).toMatchObject({ code: 2, stderr: expect.stringMatching(/2999-01-01: its noon observations are not complete yet.*; nothing was loaded/) });
  });
});
