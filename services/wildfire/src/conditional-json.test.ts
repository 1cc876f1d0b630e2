import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { expectErrorBody, storeReading, testConfig } from './__tests__/support';
import { ecosystems } from './ecosystem/tables';
import { startWildfire, type WildfireRuntime } from './runtime';

// 12:00 in Madrid on 20 July 2025.
const NOW = new Date('2025-07-20T10:00:00Z');
const M1 = '/api/v3/m1?municipio_id=28079';
const M3 = '/api/v3/m3?municipio_id=28079&date=2025-07-18';
const M10 = '/api/v3/m10?municipio_id=28079';
const STRONG = /^"[A-Za-z0-9_-]{22}"$/;

/** ETag and If-None-Match on m1, m10 and m3, over HTTP against Postgres, with the data endpoints' budget at 4 a minute. */
describe('conditional GETs of m1, m10 and m3', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;

  const liveToken = async () => (await rt.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read', 'ecosystem:read'] })).token;
  const get = (path: string, token: string, headers: Record<string, string> = {}) => request(rt.server!).get(path).set({ Authorization: `Bearer ${token}`, ...headers });

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_conditional');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_RATE_LIMIT_DATA: '4' }), 'api', { clock: () => NOW });
    await rt.database.db.insert(ecosystems).values({ municipioId: '28079', vegetationType: 'urban', fuelModel: null, fuelLoadTHa: 0, forestCoverPct: 6 });
    for (const [date, fwi] of [['2025-07-16', 10], ['2025-07-17', 14], ['2025-07-18', 22]] as const) await storeReading(rt, '28079', date, fwi);
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it.each([['m1', M1], ['m1 range', `${M1}&date_from=2025-07-16&date_to=2025-07-18`], ['m3', M3], ['m10', M10]])(
    '%s answers a strong ETag, and 304 with no body only to the If-None-Match that names it',
    async (_name, path) => {
      const token = await liveToken();
      const first = await get(path, token);
      expect(first.status).toBe(200);
      expect(first.headers.etag).toMatch(STRONG);
      const again = await get(path, token, { 'If-None-Match': first.headers.etag! });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(first.headers.etag);
      const other = await get(path, token, { 'If-None-Match': '"not-this-one"' });
      expect(other.status).toBe(200);
      expect(other.body).toEqual(first.body);
      // Without If-None-Match (If-Modified-Since alone included) the answer is always the 200.
      const dated = await get(path, token, { 'If-Modified-Since': new Date().toUTCString() });
      expect(dated.status).toBe(200);
      expect(dated.body).toEqual(first.body);
    },
  );

  it('counts a 304 against the per-minute budget as a 200', async () => {
    const token = await liveToken();
    const first = await get(M1, token);
    expect(first.headers['x-ratelimit-remaining']).toBe('3');
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get(M1, token, { 'If-None-Match': first.headers.etag! });
      expect(res.status).toBe(304);
      remaining.push(res.headers['x-ratelimit-remaining']!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    expectErrorBody(await get(M1, token, { 'If-None-Match': first.headers.etag! }), 429, 'RATE_LIMIT_EXCEEDED', null);
  });

  it('changes the ETag with the answer: another day, another view, a new reading', async () => {
    const token = await liveToken();
    const test = (await rt.tokens.create({ account: 'ayto', type: 'test', scopes: ['risk:read'] })).token;
    const m3 = await get(M3, token);
    const otherDay = await get(M3.replace('2025-07-18', '2025-07-17'), token);
    expect(otherDay.headers.etag).not.toBe(m3.headers.etag);
    const synthetic = await get(M3, test, { 'If-None-Match': m3.headers.etag! });
    expect(synthetic.status).toBe(200);
    expect(synthetic.body.source).toBe('synthetic');
    const before = await get(M1, token);
    await storeReading(rt, '28079', '2025-07-19', 30);
    const after = await get(M1, token, { 'If-None-Match': before.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ date: '2025-07-19', fwi: 30 });
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});
