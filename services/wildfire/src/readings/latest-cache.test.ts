import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, clearRedisPrefix, eventually, REDIS_URL, shortTempDir, storeReading, testConfig, uniquePrefix } from '../__tests__/support';
import { runCli } from '../cli';
import { startWildfire, type WildfireRuntime } from '../runtime';

/** "Within one second": 20 polls 50 ms apart. */
const WITHIN_A_SECOND: [number, number] = [20, 50];
// 12:00 in Madrid on 20 July 2025.
const NOW = new Date('2025-07-20T10:00:00Z');
const TTL_MS = 60_000;

/**
 * Two API instances on one database and one Redis, each caching the latest readings for
 * a minute of its own clock (far beyond the test unless a test moves b's clock): only the
 * change messages make them notice an ingestion.
 */
describe('the latest-reading cache of m1', () => {
  let db: TestDatabase;
  let a: WildfireRuntime;
  let b: WildfireRuntime;
  let bNow = 0;
  const prefix = uniquePrefix();
  const dir = shortTempDir();
  let env: Record<string, string>;
  let live: string;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_latest_cache');
    env = { WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix, WILDFIRE_READINGS_CACHE_MS: String(TTL_MS), LOG_LEVEL: 'silent' };
    a = await startWildfire(testConfig(env), 'api', { clock: () => NOW });
    b = await startWildfire(testConfig(env), 'api', { clock: () => NOW, cacheNow: () => bNow });
    live = (await a.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] })).token;
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  const m1 = (rt: WildfireRuntime, code: string, token = live) => request(rt.server!).get(`/api/v3/m1?municipio_id=${code}`).set('Authorization', `Bearer ${token}`);
  const weatherCsv = (name: string, rows: [string, string, number][]) => {
    const path = join(dir, name);
    writeFileSync(path, `municipio_id,date,temp,rh,ws,prec\n${rows.map(([code, date, temp]) => `${code},${date},${temp},30,10,0\n`).join('')}`);
    return path;
  };
  const latestDateOn = (rt: WildfireRuntime, code: string, date: string) =>
    eventually(async () => {
      const res = await m1(rt, code);
      return res.status === 200 && res.body.date === date ? res : undefined;
    }, ...WITHIN_A_SECOND);

  it('shows on instance B, within a second, a reading ingested through instance A', async () => {
    await a.ingest.weather(weatherCsv('first.csv', [['28079', '2025-07-17', 30]]));
    expect((await m1(b, '28079')).body.date).toBe('2025-07-17'); // now in b's cache
    expect((await m1(b, '28079')).body.date).toBe('2025-07-17');
    await a.ingest.weather(weatherCsv('second.csv', [['28079', '2025-07-18', 31]]));
    const seen = await latestDateOn(b, '28079', '2025-07-18');
    expect(seen.body).toMatchObject({ municipio_id: '28079', source: 'observed', temp: 31 });
    expect((await m1(a, '28079')).body.date).toBe('2025-07-18');
  });

  it('shows on every instance, within a second, a reading ingested with the CLI (a process of its own)', async () => {
    expect((await m1(a, '28079')).status).toBe(200);
    expect((await m1(b, '28079')).status).toBe(200);
    const output = captureOutput();
    expect(await runCli(['ingest', 'weather', weatherCsv('cli.csv', [['28079', '2025-07-19', 32]])], output.out, env)).toBe(0);
    await latestDateOn(a, '28079', '2025-07-19');
    await latestDateOn(b, '28079', '2025-07-19');
  });

  it('shows on every instance, within a second, a reading ingested by a worker (AEMET observations run there)', async () => {
    const worker = await startWildfire(testConfig(env), 'worker', { clock: () => NOW });
    try {
      expect((await m1(b, '28079')).status).toBe(200);
      await worker.ingest.weather(weatherCsv('worker.csv', [['28079', '2025-07-20', 33]]));
      await latestDateOn(a, '28079', '2025-07-20');
      await latestDateOn(b, '28079', '2025-07-20');
    } finally {
      await worker.close();
    }
  });

  it('turns a municipality’s first reading into an answer on the other instance (READING_NOT_FOUND is not kept past an ingestion)', async () => {
    expect((await m1(b, '08019')).body.error.code).toBe('READING_NOT_FOUND');
    await a.ingest.weather(weatherCsv('barcelona.csv', [['08019', '2025-07-19', 28]]));
    await latestDateOn(b, '08019', '2025-07-19');
  });

  it('bounds by its TTL what a lost change message leaves behind', async () => {
    expect((await m1(b, '41091')).body.error.code).toBe('READING_NOT_FOUND');
    await storeReading(a, '41091', '2025-07-16', 12); // written behind the service's back: no message is sent
    await storeReading(a, '41091', '2025-07-19', 20);
    bNow += TTL_MS - 1;
    expect((await m1(b, '41091')).body.error.code).toBe('READING_NOT_FOUND');
    bNow += 1;
    const res = await m1(b, '41091');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ date: '2025-07-19', fwi: 20 });
  });

  it('never lets a test token’s synthetic reading and a live reading stand in for each other', async () => {
    const test = (await a.tokens.create({ account: 'ayto', type: 'test', scopes: ['risk:read'] })).token;
    await storeReading(a, '46250', '2025-07-10', 40);
    // Live first (cached), then test, then live again; then the other way round on a fresh municipality.
    const liveFirst = await m1(b, '46250');
    const testAfter = await m1(b, '46250', test);
    expect(liveFirst.body).toMatchObject({ date: '2025-07-10', fwi: 40, source: 'observed' });
    expect(testAfter.body).toMatchObject({ date: '2025-07-20', source: 'synthetic' });
    expect(testAfter.headers.etag).not.toBe(liveFirst.headers.etag);
    expect((await m1(b, '46250')).body).toEqual(liveFirst.body);
    const testFirst = await m1(b, '15030', test);
    expect(testFirst.body).toMatchObject({ date: '2025-07-20', source: 'synthetic' });
    expect((await m1(b, '15030')).body.error.code).toBe('READING_NOT_FOUND');
    // A cached reading is still refused to a token whose municipality list leaves it out.
    const listed = (await a.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'], municipios: ['28079'] })).token;
    expect((await m1(b, '46250', listed)).body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await m1(b, '28079', listed)).status).toBe(200);
  });
});
