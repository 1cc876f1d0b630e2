import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, expectErrorBody, REDIS_URL, shortTempDir, storeReading, testConfig, uniquePrefix } from '../__tests__/support';
import { headFireRateOfSpread } from './fire-behaviour';
import { startWildfire, type WildfireRuntime } from '../runtime';
import type { TokenScope } from '../tokens/service';

/** GET /api/v3/m3 over HTTP against Postgres and Redis. */
describe('GET /api/v3/m3', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();
  // 12:00 in Madrid on 20 July 2025.
  const now = new Date('2025-07-20T10:00:00Z');

  const store = (municipioId: string, date: string, fwi: number) => storeReading(rt, municipioId, date, fwi);
  const token = async (scopes: TokenScope[] = ['risk:read'], type: 'live' | 'test' = 'live', municipios?: string[]) =>
    (await rt.tokens.create({ account: 'ayto', type, scopes, municipios })).token;
  const m3 = async (query: string, bearer?: string) =>
    request(rt.server!)
      .get(`/api/v3/m3?${query}`)
      .set('Authorization', `Bearer ${bearer ?? (await token())}`);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_m3');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'api', { clock: () => now });
    // The hand-computed percentile fixture (percentile.test.ts): in the ±15-day window of 20 July,
    // 7 days, 5 at or below 40. 2024-08-05 and 2023-07-04 fall just outside it.
    const days: [string, number][] = [
      ['2025-07-18', 30],
      ['2025-07-19', 36],
      ['2025-07-20', 40],
      ['2024-07-10', 20],
      ['2024-08-04', 45],
      ['2024-08-05', 1],
      ['2023-07-05', 50],
      ['2023-07-04', 0],
      ['2016-07-25', 39],
    ];
    for (const [date, fwi] of days) await store('28079', date, fwi);
    // Sevilla: a falling run ending on a moderate day; the class boundaries on three days.
    for (const [date, fwi] of [['2025-07-10', 25], ['2025-07-11', 22], ['2025-07-12', 21.3], ['2025-07-13', 37.9999], ['2025-07-14', 38], ['2025-07-15', 50], ['2025-07-16', 21.2999]] as const) {
      await store('41091', date, fwi);
    }
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  describe('for a live token', () => {
    it('answers the latest stored day with its class, AEMET level, percentile, trend, measures, actions and sources', async () => {
      const res = await m3('municipio_id=28079');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        municipio_id: '28079',
        municipality: { name: 'Madrid', province: 'Madrid', community: 'Madrid, Comunidad de' },
        date: '2025-07-20',
        fwi: 40,
        risk_label: 'HIGH',
        components: { ffmc: 90, dmc: 40, dc: 300, isi: 8, bui: 60, dsr: 1 },
        source: 'observed',
        danger_class: 'very_high',
        aemet_level: 'muy alto',
        percentile: 71.4,
        percentile_basis: { years: 4, days: 7, first_date: '2016-07-25', last_date: '2025-07-20', window_days: 15 },
        trend: { days: [{ date: '2025-07-18', fwi: 30 }, { date: '2025-07-19', fwi: 36 }, { date: '2025-07-20', fwi: 40 }], change: 10, direction: 'rising', threshold: 3 },
      });
      // The six bans, then the standing measure of Madrid's época de peligro (INFOMA, 15 June to 30 September).
      expect(res.body.measures.map((m: { code: string }) => m.code)).toEqual(['art48_6_a', 'art48_6_b', 'art48_6_c', 'art48_6_d', 'art48_6_e', 'art48_6_f', 'season_13_1']);
      for (const m of res.body.measures.slice(0, 6)) expect(m.legal_basis).toBe('Ley 43/2003 de Montes, art. 48.6');
      expect(res.body.season).toMatchObject({ community_code: '13', name: 'Época de peligro alto (INFOMA)', from: '2025-06-15', to: '2025-09-30', in_force: true, origin: 'builtin' });
      expect(res.body.actions.map((a: { category: string }) => a.category)).toEqual(expect.arrayContaining(['readiness', 'machinery', 'communication', 'access']));
      expect(res.body.sources.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining(['readings', 'effis', 'ley_montes']));
    });

    it.each([
      ['2025-07-12', 21.3, 'high', 'alto', false],
      ['2025-07-13', 37.9999, 'high', 'alto', false],
      ['2025-07-14', 38, 'very_high', 'muy alto', true],
      ['2025-07-15', 50, 'extreme', 'extremo', true],
      ['2025-07-16', 21.2999, 'moderate', 'moderado', false],
    ])('on %s (FWI %p) answers %s / %s, with the art. 48.6 measures: %p', async (date, fwi, cls, aemet, bans) => {
      const res = await m3(`municipio_id=41091&date=${date}`);
      expect(res.body).toMatchObject({ date, fwi, danger_class: cls, aemet_level: aemet });
      const legal = res.body.measures.filter((m: { legal_basis: string | null }) => m.legal_basis === 'Ley 43/2003 de Montes, art. 48.6');
      expect(legal).toHaveLength(bans ? 6 : 0);
    });

    it('says falling after a drop of 3 or more and steady within ±3', async () => {
      expect((await m3('municipio_id=41091&date=2025-07-12')).body.trend).toMatchObject({ change: -3.7, direction: 'falling' });
      expect((await m3('municipio_id=41091&date=2025-07-11')).body.trend).toMatchObject({ change: -3, direction: 'falling' });
      expect((await m3('municipio_id=41091&date=2025-07-10')).body.trend).toEqual({ days: [{ date: '2025-07-10', fwi: 25 }], change: null, direction: null, threshold: 3 });
    });

    it('answers 404 READING_NOT_FOUND for a day without data, and for a municipality with nothing stored', async () => {
      expectErrorBody(await m3('municipio_id=28079&date=2025-07-01'), 404, 'READING_NOT_FOUND', 'date');
      expectErrorBody(await m3('municipio_id=08019'), 404, 'READING_NOT_FOUND', 'municipio_id');
    });
  });

  describe('for a test token', () => {
    it('answers today from the synthetic series, with a percentile over every year since 2015, the same each time', async () => {
      const test = await token(['risk:read'], 'test');
      const a = await m3('municipio_id=41091', test);
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ date: '2025-07-20', source: 'synthetic', percentile_basis: { years: 11, days: 10 * 31 + 16 } });
      expect(a.body.trend.days).toHaveLength(3);
      expect(a.body.sources.map((s: { id: string }) => s.id)).toContain('synthetic');
      expect((await m3('municipio_id=41091', test)).body).toEqual(a.body);
      const m1 = await request(rt.server!).get('/api/v3/m1?municipio_id=41091').set('Authorization', `Bearer ${test}`);
      expect(a.body).toMatchObject({ fwi: m1.body.fwi, risk_score: m1.body.risk_score, risk_label: m1.body.risk_label });
    });
  });

  describe('fire_behaviour', () => {
    beforeAll(async () => {
      const path = join(shortTempDir(), 'ecosystem.csv');
      writeFileSync(path, 'municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct\n41091,shrubland,6,12.4,18\n28079,urban,,0,6\n');
      await rt.ingest.ecosystem(path);
    });

    it('gives the FBP spread and Byram intensity of the day’s ISI and BUI in the municipality’s fuel, with its class', async () => {
      // storeReading's days have ISI 8 and BUI 60; Sevilla's fuel model 6 (shrub) stands in as FBP C-7:
      // 45·(1 − e^(−0.0305·8))² · e^(50·ln 0.85·(1/60 − 1/106)) ≈ 1.99 m/min, × 300 × 1.24 kg/m² ≈ 739 kW/m: class 3.
      const res = await m3('municipio_id=41091&date=2025-07-14');
      const ros = headFireRateOfSpread('C-7', 8, 60);
      expect(ros).toBeCloseTo(1.99, 2);
      expect(res.body.fire_behaviour).toEqual({
        behaviour_class: 'moderate',
        explanation: expect.stringContaining('autobombas'),
        intensity_class: 3,
        head_fire_intensity_kw_m: Math.round(300 * 1.24 * ros),
        rate_of_spread_m_min: Math.round(ros * 100) / 100,
        fbp_fuel_type: 'C-7',
        fuel_model: 6,
        fuel_load_t_ha: 12.4,
        vegetation_type: 'shrubland',
        isi: 8,
        bui: 60,
      });
      expect(res.body.sources.map((s: { id: string }) => s.id)).toContain('fbp');
    });

    it('says no surface fire spread is expected on urban land, with no number', async () => {
      const res = await m3('municipio_id=28079&date=2025-07-20');
      expect(res.body.fire_behaviour).toMatchObject({ behaviour_class: 'no_spread', intensity_class: null, head_fire_intensity_kw_m: null, rate_of_spread_m_min: null, fuel_model: null });
      expect(res.body.fire_behaviour.explanation).toMatch(/^No se espera propagación de fuego de superficie/);
    });

    it('is null for a live municipality with no ecosystem loaded, and comes from the synthetic ecosystem for test tokens', async () => {
      await store('29067', '2025-07-20', 30);
      const live = await m3('municipio_id=29067');
      expect(live.body.fire_behaviour).toBeNull();
      expect(live.body.sources.map((s: { id: string }) => s.id)).not.toContain('fbp');
      const test = await m3('municipio_id=29067&date=2025-07-20', await token(['risk:read'], 'test'));
      const m10 = await request(rt.server!).get('/api/v3/m10?municipio_id=29067').set('Authorization', `Bearer ${(await rt.tokens.create({ account: 'ayto', type: 'test', scopes: ['ecosystem:read'] })).token}`);
      expect(test.body.fire_behaviour).toMatchObject({ fuel_model: m10.body.fuel_model, fuel_load_t_ha: m10.body.fuel_load_t_ha, isi: test.body.components.isi, bui: test.body.components.bui });
    });
  });

  describe('season', () => {
    const codes = (body: { measures: { code: string }[] }) => body.measures.map((m) => m.code).filter((c) => c.startsWith('season_'));

    it.each([
      ['2025-05-31', false],
      ['2025-06-01', true],
      ['2024-10-15', true],
      ['2024-10-16', false],
    ])('gives Sevilla on %s the INFOCA season of that year, in force %p, and its standing measures only inside it', async (date, inForce) => {
      const res = await m3(`municipio_id=41091&date=${date}`, await token(['risk:read'], 'test'));
      expect(res.status).toBe(200);
      const year = date.slice(0, 4);
      expect(res.body.season).toEqual({
        community_code: '01',
        name: 'Época de peligro alto (Plan INFOCA)',
        from: `${year}-06-01`,
        to: `${year}-10-15`,
        in_force: inForce,
        authority: 'Junta de Andalucía (Plan INFOCA)',
        source: 'https://juntadeandalucia.es/boja/2010/192/1',
        source_title: expect.stringContaining('Decreto 371/2010'),
        measures: expect.arrayContaining([expect.stringContaining('Prohibido el uso del fuego')]),
        note: expect.any(String),
        origin: 'builtin',
      });
      expect(codes(res.body)).toEqual(inForce ? ['season_01_1', 'season_01_2', 'season_01_3'] : []);
      const seasonal = res.body.measures.find((m: { code: string }) => m.code === 'season_01_1');
      if (inForce) expect(seasonal).toMatchObject({ legal_basis: expect.stringContaining('Decreto 371/2010'), source: 'https://juntadeandalucia.es/boja/2010/192/1' });
      expect(res.body.sources.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining(['seasons', 'season_01']));
    });

    it('tells a Canary Islands municipality that its community has no fixed season, with no seasonal measures', async () => {
      const res = await m3('municipio_id=38038&date=2025-07-20', await token(['risk:read'], 'test'));
      expect(res.status).toBe(200);
      expect(res.body.municipality.community).toBe('Canarias');
      expect(res.body.season).toMatchObject({ community_code: '05', name: null, from: null, to: null, in_force: false, measures: [], note: expect.stringContaining('por episodios') });
      expect(codes(res.body)).toEqual([]);
    });
  });

  describe('errors', () => {
    it('answers 400 MISSING_REQUIRED_PARAM and INVALID_PARAM_FORMAT', async () => {
      expectErrorBody(await m3('date=2025-07-01'), 400, 'MISSING_REQUIRED_PARAM', 'municipio_id');
      expectErrorBody(await m3('municipio_id=2807'), 400, 'INVALID_PARAM_FORMAT', 'municipio_id');
      expectErrorBody(await m3('municipio_id=28079&date=2025-02-30'), 400, 'INVALID_PARAM_FORMAT', 'date');
      expectErrorBody(await m3('municipio_id=28079&date=20250701'), 400, 'INVALID_PARAM_FORMAT', 'date');
    });

    it.each([['2014-12-31'], ['2025-07-21']])('answers 422 DATE_OUT_OF_RANGE to date=%s, for live and test tokens', async (date) => {
      expectErrorBody(await m3(`municipio_id=28079&date=${date}`), 422, 'DATE_OUT_OF_RANGE', 'date');
      expectErrorBody(await m3(`municipio_id=28079&date=${date}`, await token(['risk:read'], 'test')), 422, 'DATE_OUT_OF_RANGE', 'date');
    });

    it('answers 404 MUNICIPALITY_NOT_FOUND to an unknown code', async () => {
      expectErrorBody(await m3('municipio_id=99999'), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
      expectErrorBody(await m3('municipio_id=99999', await token(['risk:read'], 'test')), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
    });

    it('answers 401 MISSING_AUTH_HEADER without a token', async () => {
      expectErrorBody(await request(rt.server!).get('/api/v3/m3?municipio_id=28079'), 401, 'MISSING_AUTH_HEADER', null);
    });

    it('answers 403 INSUFFICIENT_SCOPE without risk:read, and outside the token’s municipality list', async () => {
      expectErrorBody(await m3('municipio_id=28079', await token(['reports:read', 'ecosystem:read'])), 403, 'INSUFFICIENT_SCOPE', null);
      expectErrorBody(await m3('municipio_id=41091', await token(['risk:read'], 'live', ['28079'])), 403, 'INSUFFICIENT_SCOPE', 'municipio_id');
    });
  });

  it('counts toward the 100-per-minute data limit of a live token, shared with m1, and never limits test tokens', async () => {
    const live = await token();
    for (let i = 0; i < 99; i++) expect((await request(rt.server!).get('/api/v3/m1?municipio_id=28079').set('Authorization', `Bearer ${live}`)).status).toBe(200);
    const last = await m3('municipio_id=28079', live);
    expect([last.status, last.headers['x-ratelimit-remaining']]).toEqual([200, '0']);
    const refused = await m3('municipio_id=28079', live);
    expectErrorBody(refused, 429, 'RATE_LIMIT_EXCEEDED', null);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    const test = await token(['risk:read'], 'test');
    for (let i = 0; i < 101; i++) expect((await m3('municipio_id=28079&date=2025-07-01', test)).status).toBe(200);
  });

  it('is documented in OpenAPI with every field of the response', async () => {
    const { body } = await request(rt.server!).get('/openapi.json');
    const op = body.paths['/api/v3/m3'].get;
    expect(op.security).toEqual([{ BearerToken: ['risk:read'] }]);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '304', '400', '401', '403', '404', '422', '429', '503'].filter((s) => s in op.responses).sort());
    const schema = body.components.schemas.M3DecisionSupport;
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['danger_class', 'aemet_level', 'percentile', 'percentile_basis', 'trend', 'fire_behaviour', 'season', 'measures', 'actions', 'sources']));
    for (const [field, prop] of Object.entries(body.components.schemas.FireBehaviour.properties as Record<string, { description?: string }>)) expect([field, prop.description]).toEqual([field, expect.any(String)]);
    for (const [field, prop] of Object.entries(body.components.schemas.DangerSeason.properties as Record<string, { description?: string }>)) expect([field, prop.description]).toEqual([field, expect.any(String)]);
  });
});
