import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { expectErrorBody, testConfig } from '../__tests__/support';
import { readingOf } from './reading';
import { readings } from './tables';
import { startWildfire, type WildfireRuntime } from '../runtime';
import type { TokenScope } from '../tokens/service';

/** GET /api/v3/m1 over HTTP against Postgres: stored readings for live tokens and the full error contract. */
describe('GET /api/v3/m1', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  // 12:00 in Madrid on 20 July 2025; tests that need another instant set it and restore it.
  const NOON = new Date('2025-07-20T10:00:00Z');
  let now = NOON;
  let live: string;

  const store = async (municipioId: string, date: string, fwi: number) => {
    const day = { ffmc: 90, dmc: 40, dc: 300, isi: 8, bui: 60, fwi, dsr: 0.0272 * fwi ** 1.77 };
    const r = readingOf(date, { temp: 30, rh: 25, ws: 15, prec: 0 }, day);
    const { riskScore, riskLabel, ...rest } = r;
    await rt.database.db.insert(readings).values({ municipioId, ...rest, riskScore, riskLabel });
  };
  const token = async (scopes: TokenScope[], extra: { type?: 'live' | 'test'; municipios?: string[] } = {}) =>
    (await rt.tokens.create({ account: 'ayto', type: extra.type ?? 'live', scopes, municipios: extra.municipios })).token;
  const m1 = (query: string, bearer = live) => request(rt.server!).get(`/api/v3/m1?${query}`).set('Authorization', `Bearer ${bearer}`);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_m1');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'api', { clock: () => now });
    live = await token(['risk:read']);
    await store('28079', '2025-07-17', 5);
    await store('28079', '2025-07-19', 15);
    await store('28079', '2025-07-18', 30);
    await store('28079', '2024-07-20', 12);
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  afterEach(() => {
    now = NOON;
  });

  describe('for a live token', () => {
    it('answers the latest stored reading with its risk and the FWI components', async () => {
      const res = await m1('municipio_id=28079');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        municipio_id: '28079',
        date: '2025-07-19',
        risk_score: 0.458746,
        risk_label: 'MEDIUM',
        fwi: 15,
        ffmc: 90,
        dmc: 40,
        dc: 300,
        isi: 8,
        bui: 60,
        dsr: expect.any(Number),
        temp: 30,
        rh: 25,
        ws: 15,
        prec: 0,
        source: 'observed',
      });
    });

    it('answers a range in date order, echoing the resolved bounds', async () => {
      const res = await m1('municipio_id=28079&date_from=2025-07-16&date_to=2025-07-20');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ municipio_id: '28079', date_from: '2025-07-16', date_to: '2025-07-20' });
      expect(res.body.data.map((r: { date: string; risk_label: string }) => [r.date, r.risk_label])).toEqual([
        ['2025-07-17', 'LOW'],
        ['2025-07-18', 'HIGH'],
        ['2025-07-19', 'MEDIUM'],
      ]);
    });

    it('answers an empty data list for a range where nothing is stored', async () => {
      const res = await m1('municipio_id=41091&date_from=2025-01-01&date_to=2025-01-31');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ municipio_id: '41091', date_from: '2025-01-01', date_to: '2025-01-31', data: [] });
    });

    it('runs a lone date_from up to today and a lone date_to back 366 days', async () => {
      const from = await m1('municipio_id=28079&date_from=2025-07-18');
      expect(from.body).toMatchObject({ date_from: '2025-07-18', date_to: '2025-07-20' });
      expect(from.body.data).toHaveLength(2);
      const to = await m1('municipio_id=28079&date_to=2025-07-17');
      expect(to.body).toMatchObject({ date_from: '2024-07-17', date_to: '2025-07-17' });
      expect(to.body.data.map((r: { date: string }) => r.date)).toEqual(['2024-07-20', '2025-07-17']);
    });

    it('answers 404 READING_NOT_FOUND for the latest reading of a municipality with none stored', async () => {
      const res = await m1('municipio_id=41091');
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'READING_NOT_FOUND', param: 'municipio_id' });
    });
  });

  describe('for a test token', () => {
    it('answers synthetic data for today and never the stored readings', async () => {
      const test = await token(['risk:read'], { type: 'test' });
      const res = await m1('municipio_id=28079', test);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ municipio_id: '28079', date: '2025-07-20', source: 'synthetic' });
      const range = await m1('municipio_id=28079&date_from=2025-07-17&date_to=2025-07-19', test);
      expect(range.body.data.map((r: { source: string }) => r.source)).toEqual(['synthetic', 'synthetic', 'synthetic']);
      expect(range.body.data.map((r: { fwi: number }) => r.fwi)).not.toEqual([5, 30, 15]);
    });

    it('gives the same answer to the same request', async () => {
      const test = await token(['risk:read'], { type: 'test' });
      const a = await m1('municipio_id=15030&date_from=2024-03-01&date_to=2024-03-31', test);
      const b = await m1('municipio_id=15030&date_from=2024-03-01&date_to=2024-03-31', await token(['risk:read'], { type: 'test' }));
      expect(a.body.data).toHaveLength(31);
      expect(b.body).toEqual(a.body);
    });
  });

  describe('errors', () => {

    it('answers 400 MISSING_REQUIRED_PARAM without municipio_id', async () => {
      expectErrorBody(await m1('date_from=2025-07-01'), 400, 'MISSING_REQUIRED_PARAM', 'municipio_id');
    });

    it.each(['2807', '280790', 'abcde', '28O79', '+2807', '', '28079&municipio_id=41091'])(
      'answers 400 INVALID_PARAM_FORMAT to municipio_id=%s',
      async (value) => {
        expectErrorBody(await m1(`municipio_id=${value}`), 400, 'INVALID_PARAM_FORMAT', 'municipio_id');
      },
    );

    it.each(['99999', '53001', '00000'])('answers 404 MUNICIPALITY_NOT_FOUND to the well-formed unknown code %s', async (code) => {
      expectErrorBody(await m1(`municipio_id=${code}`), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
      expectErrorBody(await m1(`municipio_id=${code}&date_from=2025-07-01`), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
    });

    it.each([
      ['date_from', '2025-7-1'],
      ['date_from', '2025-02-30'],
      ['date_to', '20250701'],
      ['date_to', '2025-07-01T00:00:00Z'],
      ['date_from', ''],
      ['date_to', 'yesterday'],
    ])('answers 400 INVALID_PARAM_FORMAT to %s=%s', async (param, value) => {
      expectErrorBody(await m1(`municipio_id=28079&${param}=${value}`), 400, 'INVALID_PARAM_FORMAT', param);
    });

    it.each([
      ['date_from=2014-12-31', 'date_from'],
      ['date_to=2014-12-31', 'date_to'],
      ['date_from=2025-07-21', 'date_from'],
      ['date_from=2025-07-01&date_to=2025-07-21', 'date_to'],
    ])('answers 422 DATE_OUT_OF_RANGE to %s', async (query, param) => {
      expectErrorBody(await m1(`municipio_id=28079&${query}`), 422, 'DATE_OUT_OF_RANGE', param);
    });

    it('takes "today" from the Spanish calendar of the injected clock', async () => {
      now = new Date('2025-07-20T22:30:00Z');
      expect((await m1('municipio_id=28079&date_from=2025-07-21')).status).toBe(200);
      expectErrorBody(await m1('municipio_id=28079&date_from=2025-07-22'), 422, 'DATE_OUT_OF_RANGE', 'date_from');
    });

    it('answers 422 INVALID_DATE_RANGE when date_from is after date_to', async () => {
      expectErrorBody(await m1('municipio_id=28079&date_from=2025-07-10&date_to=2025-07-09'), 422, 'INVALID_DATE_RANGE', 'date_from');
    });

    it('answers 422 DATE_RANGE_TOO_LARGE beyond 366 days and accepts exactly 366', async () => {
      expectErrorBody(await m1('municipio_id=28079&date_from=2023-01-01&date_to=2024-01-02'), 422, 'DATE_RANGE_TOO_LARGE', 'date_to');
      expect((await m1('municipio_id=28079&date_from=2024-01-01&date_to=2024-12-31')).status).toBe(200);
    });

    it('answers 401 MISSING_AUTH_HEADER without a token', async () => {
      const res = await request(rt.server!).get('/api/v3/m1?municipio_id=28079');
      expectErrorBody(res, 401, 'MISSING_AUTH_HEADER', null);
    });

    it('answers 403 INSUFFICIENT_SCOPE to a token without risk:read', async () => {
      expectErrorBody(await m1('municipio_id=28079', await token(['ecosystem:read'])), 403, 'INSUFFICIENT_SCOPE', null);
    });

    it('answers 403 INSUFFICIENT_SCOPE naming the municipality restriction outside the token’s municipality list, and 200 inside it', async () => {
      const madridOnly = await token(['risk:read'], { municipios: ['28079', '08019'] });
      const refused = await m1('municipio_id=41091&date_from=2025-07-01', madridOnly);
      expectErrorBody(refused, 403, 'INSUFFICIENT_SCOPE', 'municipio_id');
      expect(refused.body.error.message).toBe('This token is restricted to municipalities 28079, 08019; it may not read municipality 41091');
      expect((await m1('municipio_id=28079', madridOnly)).status).toBe(200);
    });
  });

  it('is documented in OpenAPI with its parameters, responses and error codes', async () => {
    const { body } = await request(rt.server!).get('/openapi.json');
    const op = body.paths['/api/v3/m1'].get;
    expect(op.security).toEqual([{ BearerToken: ['risk:read'] }]);
    expect(op.parameters.map((p: { name: string; required?: boolean }) => [p.name, p.required ?? false])).toEqual([
      ['municipio_id', true],
      ['date_from', false],
      ['date_to', false],
    ]);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '304', '400', '401', '403', '404', '422', '429', '503']);
    expect(op.responses['429'].description).toMatch(/RATE_LIMIT_EXCEEDED.*QUOTA_EXCEEDED/);
    expect(Object.keys(op.responses['429'].headers)).toEqual(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    expect(Object.keys(op.responses['200'].headers)).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'ETag']);
    expect(op.responses['422'].description).toMatch(/DATE_OUT_OF_RANGE.*INVALID_DATE_RANGE.*DATE_RANGE_TOO_LARGE/);
    expect(op.responses['404'].description).toMatch(/MUNICIPALITY_NOT_FOUND/);
    expect(body.components.schemas).toHaveProperty('Reading');
    expect(body.components.schemas).toHaveProperty('ReadingRange');
  });
});
