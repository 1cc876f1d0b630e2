import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, expectErrorBody, REDIS_URL, storeReading, testConfig, uniquePrefix } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import type { TokenScope } from '../tokens/service';
import { FRAMING_AUDIENCES } from './templates-es';
import { expectNumbersEqualFields } from './__tests__/framing-text';

/** GET /api/v1/framing over HTTP against Postgres and Redis. */
describe('GET /api/v1/framing', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();
  const now = new Date('2025-07-20T10:00:00Z');

  const store = (municipioId: string, date: string, fwi: number) => storeReading(rt, municipioId, date, fwi);
  const token = async (scopes: TokenScope[] = ['reports:read'], type: 'live' | 'test' = 'live') => (await rt.tokens.create({ account: 'ayto', type, scopes })).token;
  const frame = async (query: string, bearer?: string) =>
    request(rt.server!)
      .get(`/api/v1/framing?${query}`)
      .set('Authorization', `Bearer ${bearer ?? (await token())}`);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_framing');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'api', { clock: () => now });
    for (const [date, fwi] of [['2025-07-18', 30.25], ['2025-07-19', 36], ['2025-07-20', 40.44], ['2024-07-20', 33.3], ['2023-07-25', 52.06]] as const) await store('28079', date, fwi);
    for (const [date, fwi] of [['2025-07-19', 4.1], ['2025-07-20', 3]] as const) await store('15030', date, fwi);
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  it('tells a very high day in Spanish, with the bans in force, every number in the text equal to a field', async () => {
    const res = await frame('municipio_id=28079');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      municipio_id: '28079',
      date: '2025-07-20',
      audience: 'ciudadania',
      lang: 'es',
      danger_class: 'very_high',
      fwi: 40.4,
      headline: 'Peligro de incendio muy alto en Madrid: prohibido el uso del fuego',
      summary: 'El 20 de julio de 2025, el índice meteorológico de peligro de incendio (FWI) en Madrid es 40,4, nivel muy alto en la escala europea (EFFIS).',
      context: {
        percentile: 80,
        percentile_basis: { years: 3, days: 5, window_days: 15 },
        vs_last_year: { date: '2024-07-20', fwi: 33.3, difference: 7.1 },
        vs_history_max: { date: '2023-07-25', fwi: 52.1, difference: -11.7 },
        trend: { direction: 'rising', change: 10.2, days: 3 },
        season: { community_code: '13', name: 'Época de peligro alto (INFOMA)', from: '2025-06-15', to: '2025-09-30', in_force: true },
      },
    });
    expect(res.body.key_messages).toEqual([
      'De los 5 días comparables de los últimos 3 años (15 días antes y después de esta fecha), el 80 % tuvo un índice igual o inferior.',
      'El índice ha subido 10,2 puntos en los últimos 3 días.',
      'El mismo día del año pasado el índice fue 33,3.',
      'El valor más alto de ese periodo en los registros es 52,1, del 25 de julio de 2023.',
      expect.stringContaining('la Ley de Montes obliga'),
    ]);
    // The six art. 48.6 bans and the standing measure of Madrid's época de peligro.
    expect(res.body.measures_in_force.map((m: { code: string }) => m.code)).toEqual(['art48_6_a', 'art48_6_b', 'art48_6_c', 'art48_6_d', 'art48_6_e', 'art48_6_f', 'season_13_1']);
    expectNumbersEqualFields(res.body);
  });

  it('is calm on a very low day: no bans, no alarm', async () => {
    const res = await frame('municipio_id=15030');
    // Only the standing measure of Galicia's época de perigo alto (1 July to 30 September), no art. 48.6 ban.
    expect(res.body).toMatchObject({ danger_class: 'very_low', call_to_action: 'Si ve humo o fuego en el monte, llame al 112.' });
    expect(res.body.measures_in_force.map((m: { code: string }) => m.code)).toEqual(['season_12_1']);
    expect(res.body.headline).toBe('Peligro de incendio muy bajo en Coruña, A');
    expect(res.body.key_messages.join(' ')).not.toMatch(/prohib|Ley de Montes/);
  });

  it.each(FRAMING_AUDIENCES)('gives %s its own call to action, the same text on every call, numbers equal to fields', async (audience) => {
    const a = await frame(`municipio_id=28079&audience=${audience}&date=2025-07-20`);
    const b = await frame(`municipio_id=28079&audience=${audience}&date=2025-07-20`);
    expect(b.body).toEqual(a.body);
    expect(a.body.audience).toBe(audience);
    expectNumbersEqualFields(a.body);
  });

  it('writes a different headline and summary for each audience, and no forecast section while the service holds no forecast', async () => {
    const bodies = await Promise.all(FRAMING_AUDIENCES.map(async (audience) => (await frame(`municipio_id=28079&audience=${audience}&date=2025-07-20`)).body));
    expect(new Set(bodies.map((b) => b.headline)).size).toBe(FRAMING_AUDIENCES.length);
    expect(new Set(bodies.map((b) => b.summary)).size).toBe(FRAMING_AUDIENCES.length);
    for (const body of bodies) expect(body).not.toHaveProperty('forecast');
  });

  it('tells a test token the synthetic day, deterministic, numbers equal to fields', async () => {
    const test = await token(['reports:read'], 'test');
    const a = await frame('municipio_id=41091&audience=prensa', test);
    expect(a.body).toMatchObject({ source: 'synthetic', date: '2025-07-20' });
    expect((await frame('municipio_id=41091&audience=prensa', test)).body).toEqual(a.body);
    expectNumbersEqualFields(a.body);
  });

  it('answers the documented errors', async () => {
    expectErrorBody(await frame('audience=prensa'), 400, 'MISSING_REQUIRED_PARAM', 'municipio_id');
    expectErrorBody(await frame('municipio_id=28079&audience=vecinos'), 400, 'INVALID_PARAM_FORMAT', 'audience');
    expectErrorBody(await frame('municipio_id=28079&lang=fr'), 400, 'INVALID_PARAM_FORMAT', 'lang');
    expectErrorBody(await frame('municipio_id=99999'), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
    expectErrorBody(await frame('municipio_id=28079&date=2025-07-21'), 422, 'DATE_OUT_OF_RANGE', 'date');
    expectErrorBody(await request(rt.server!).get('/api/v1/framing?municipio_id=28079'), 401, 'MISSING_AUTH_HEADER', null);
    expectErrorBody(await frame('municipio_id=28079', await token(['risk:read'])), 403, 'INSUFFICIENT_SCOPE', null);
  });

  it('counts toward the 100-per-minute data limit of a live token', async () => {
    const live = await token();
    for (let i = 0; i < 100; i++) expect((await frame('municipio_id=28079', live)).status).toBe(200);
    expectErrorBody(await frame('municipio_id=28079', live), 429, 'RATE_LIMIT_EXCEEDED', null);
  });
});
