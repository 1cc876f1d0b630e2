import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { expectErrorBody, testConfig } from '../__tests__/support';
import { readingOf } from '../readings/reading';
import { readings } from '../readings/tables';
import { startWildfire, type WildfireRuntime } from '../runtime';
import type { TokenScope } from '../tokens/service';
import { syntheticEcosystem } from './synthetic-ecosystem';
import { ecosystems } from './tables';

/** GET /api/v3/m10 and GET /ecosystem over HTTP against Postgres: stored data for live tokens, synthetic for test tokens, the error contract. */
describe('GET /api/v3/m10 and GET /ecosystem', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  // 12:00 in Madrid on 20 July 2025.
  const NOW = new Date('2025-07-20T10:00:00Z');

  const token = async (scopes: TokenScope[] = ['ecosystem:read'], extra: { type?: 'live' | 'test'; municipios?: string[] } = {}) =>
    (await rt.tokens.create({ account: 'ayto', type: extra.type ?? 'live', scopes, municipios: extra.municipios })).token;
  const get = async (path: string, query: string, bearer?: string) =>
    request(rt.server!)
      .get(`${path}?${query}`)
      .set('Authorization', `Bearer ${bearer ?? (await token())}`);
  const storeWeather = async (municipioId: string, date: string, temp: number, rh: number) => {
    const r = readingOf(date, { temp, rh, ws: 10, prec: 0 }, { ffmc: 90, dmc: 40, dc: 300, isi: 8, bui: 60, fwi: 20, dsr: 4 });
    const { riskScore, riskLabel, ...rest } = r;
    await rt.database.db.insert(readings).values({ municipioId, ...rest, riskScore, riskLabel });
  };

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_ecosystem');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'api', { clock: () => NOW });
    await rt.database.db.insert(ecosystems).values([
      { municipioId: '28079', vegetationType: 'urban', fuelModel: null, fuelLoadTHa: 0, forestCoverPct: 6 },
      { municipioId: '41091', vegetationType: 'shrubland', fuelModel: 6, fuelLoadTHa: 12.4, forestCoverPct: 18 },
    ]);
    await storeWeather('41091', '2025-07-14', 30, 40);
    await storeWeather('41091', '2025-07-15', 36.2, 21);
    await storeWeather('41091', '2025-07-10', 20, 80);
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  describe('for a live token', () => {
    it('m10 answers the stored ecosystem with the fuel moisture index of the latest stored weather', async () => {
      const res = await get('/api/v3/m10', 'municipio_id=41091');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        municipio_id: '41091',
        vegetation_type: 'shrubland',
        fuel_model: 6,
        fuel_load_t_ha: 12.4,
        fuel_moisture_index: 6.2,
        forest_cover_pct: 18,
        source: 'observed',
      });
    });

    it('/ecosystem answers the same fields plus names, the weather behind the index and when the data changed', async () => {
      const m10 = await get('/api/v3/m10', 'municipio_id=41091');
      const res = await get('/ecosystem', 'municipio_id=41091');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...m10.body,
        municipality: { name: expect.any(String), province: 'Sevilla', community: 'Andalucía' },
        vegetation_type_name: 'Shrubland (matorral)',
        fuel_model_name: 'Dormant brush, hardwood slash',
        fmi_weather: { date: '2025-07-15', temp: 36.2, rh: 21 },
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    });

    it('answers a null fuel moisture index and fuel model where no weather is stored and the land is non-burnable', async () => {
      const m10 = await get('/api/v3/m10', 'municipio_id=28079');
      expect(m10.body).toMatchObject({ vegetation_type: 'urban', fuel_model: null, fuel_moisture_index: null, source: 'observed' });
      const detail = await get('/ecosystem', 'municipio_id=28079');
      expect(detail.body).toMatchObject({ fuel_model_name: null, fmi_weather: null, municipality: { name: 'Madrid' } });
    });

    it('counts both paths against the token’s per-minute data budget', async () => {
      const live = await token();
      const first = await get('/api/v3/m10', 'municipio_id=41091', live);
      const second = await get('/ecosystem', 'municipio_id=41091', live);
      expect(Number(first.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
      expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    });

    it.each(['/api/v3/m10', '/ecosystem'])('%s answers 404 ECOSYSTEM_NOT_FOUND for a known municipality with nothing loaded', async (path) => {
      const res = await get(path, 'municipio_id=15030');
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'ECOSYSTEM_NOT_FOUND', param: 'municipio_id' });
    });
  });

  describe('for a test token', () => {
    it('answers the synthetic ecosystem, never the stored one, with the index of today’s synthetic weather', async () => {
      const test = await token(['ecosystem:read', 'risk:read'], { type: 'test' });
      const res = await get('/ecosystem', 'municipio_id=41091', test);
      expect(res.status).toBe(200);
      const expected = syntheticEcosystem('41091');
      expect(res.body).toMatchObject({
        vegetation_type: expected.vegetationType,
        fuel_model: expected.fuelModel,
        fuel_load_t_ha: expected.fuelLoadTHa,
        forest_cover_pct: expected.forestCoverPct,
        source: 'synthetic',
        updated_at: null,
      });
      const today = (await get('/api/v3/m1', 'municipio_id=41091', test)).body;
      expect(res.body.fmi_weather).toEqual({ date: '2025-07-20', temp: today.temp, rh: today.rh });
      expect(res.body.fuel_moisture_index).toBeCloseTo(10 - 0.25 * (today.temp - today.rh), 9);
    });

    it('answers a municipality with nothing loaded, the same answer to the same request, and m10 as the subset of /ecosystem', async () => {
      const a = await get('/api/v3/m10', 'municipio_id=15030', await token(['ecosystem:read'], { type: 'test' }));
      const b = await get('/api/v3/m10', 'municipio_id=15030', await token(['ecosystem:read'], { type: 'test' }));
      expect(a.status).toBe(200);
      expect(b.body).toEqual(a.body);
      const detail = await get('/ecosystem', 'municipio_id=15030', await token(['ecosystem:read'], { type: 'test' }));
      expect(detail.body).toMatchObject(a.body);
    });
  });

  describe.each(['/api/v3/m10', '/ecosystem'])('errors of %s', (path) => {

    it('answers 400 MISSING_REQUIRED_PARAM without municipio_id', async () => {
      expectErrorBody(await get(path, ''), 400, 'MISSING_REQUIRED_PARAM', 'municipio_id');
    });

    it.each(['2807', '280790', 'abcde', '28O79', '', '41091&municipio_id=28079'])('answers 400 INVALID_PARAM_FORMAT to municipio_id=%s', async (value) => {
      expectErrorBody(await get(path, `municipio_id=${value}`), 400, 'INVALID_PARAM_FORMAT', 'municipio_id');
    });

    it.each(['live', 'test'] as const)('answers 404 MUNICIPALITY_NOT_FOUND to a well-formed unknown code (%s token)', async (type) => {
      expectErrorBody(await get(path, 'municipio_id=99999', await token(['ecosystem:read'], { type })), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
    });

    it('answers 401 MISSING_AUTH_HEADER without a token', async () => {
      expectErrorBody(await request(rt.server!).get(`${path}?municipio_id=41091`), 401, 'MISSING_AUTH_HEADER', null);
    });

    it('answers 403 INSUFFICIENT_SCOPE to a token without ecosystem:read', async () => {
      expectErrorBody(await get(path, 'municipio_id=41091', await token(['risk:read'])), 403, 'INSUFFICIENT_SCOPE', null);
    });

    it.each(['live', 'test'] as const)('answers 403 INSUFFICIENT_SCOPE outside a %s token’s municipality list, and 200 inside it', async (type) => {
      const sevilleOnly = await token(['ecosystem:read'], { type, municipios: ['41091'] });
      expectErrorBody(await get(path, 'municipio_id=28079', sevilleOnly), 403, 'INSUFFICIENT_SCOPE', 'municipio_id');
      expect((await get(path, 'municipio_id=41091', sevilleOnly)).status).toBe(200);
    });
  });

  it('documents both paths in OpenAPI with their scope, parameter, responses and error codes', async () => {
    const { body } = await request(rt.server!).get('/openapi.json');
    for (const [path, schema] of [
      ['/api/v3/m10', 'Ecosystem'],
      ['/ecosystem', 'EcosystemDetail'],
    ] as const) {
      const op = body.paths[path].get;
      expect(op.security).toEqual([{ BearerToken: ['ecosystem:read'] }]);
      expect(op.parameters.map((p: { name: string; required?: boolean }) => [p.name, p.required ?? false])).toEqual([['municipio_id', true]]);
      // m10 revalidates (ETag, 304); /ecosystem carries updated_at instead.
      expect(Object.keys(op.responses).sort()).toEqual([...(path === '/api/v3/m10' ? ['200', '304'] : ['200']), '400', '401', '403', '404', '429', '503']);
      expect(op.responses['200'].content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${schema}` });
      expect(op.responses['404'].description).toMatch(/MUNICIPALITY_NOT_FOUND.*ECOSYSTEM_NOT_FOUND/);
      expect(op.responses['403'].description).toMatch(/INSUFFICIENT_SCOPE.*ecosystem:read.*municipality list/);
      expect(op.responses['429'].description).toMatch(/RATE_LIMIT_EXCEEDED/);
    }
    expect(body.components.schemas.Ecosystem.properties.vegetation_type.enum).toContain('dehesa');
    expect(body.components.schemas.ErrorBody.description).toContain('ECOSYSTEM_NOT_FOUND');
  });
});
