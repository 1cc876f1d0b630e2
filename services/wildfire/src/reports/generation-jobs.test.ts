import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, unusedDataDir, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, eventually, expectErrorBody, REDIS_URL, storeReading, testConfig, uniquePrefix, verifyWithTools } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { reports } from './tables';

/** The `report.generate` job through BullMQ on Redis: a failing job, and a report finished by a worker after the POST stopped waiting. */
describe('report generation jobs', () => {
  let db: TestDatabase;
  const prefix = uniquePrefix();
  const now = new Date('2025-08-10T10:00:00Z');
  const started: WildfireRuntime[] = [];
  const start = async (role: 'all' | 'api' | 'worker', env: Record<string, string> = {}) => {
    const rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix, ...env }), role, { clock: () => now });
    started.push(rt);
    return rt;
  };
  const token = async (rt: WildfireRuntime) => (await rt.tokens.create({ account: 'ayto-jobs', type: 'live', scopes: ['reports:write', 'reports:read'] })).token;
  const rowsOf = async (rt: WildfireRuntime) => rt.database.db.select().from(reports);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_report_jobs');
  });

  afterAll(async () => {
    for (const rt of started.reverse()) await rt.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    await clearRedisPrefix(`${prefix}-async`);
    await clearRedisPrefix(`${prefix}-wait`);
  });

  it('answers 500 REPORT_FAILED when the job fails for good, leaves the report failed with no file, and keeps answering REPORT_FAILED for it', async () => {
    const rt = await start('all');
    await storeReading(rt, '28079', '2025-07-01', 12);
    // The report folder's place is taken by a file, so storing any report fails, on every attempt.
    const files = join(rt.config.dataDir, 'wildfire', 'files');
    mkdirSync(files, { recursive: true });
    writeFileSync(join(files, 'reports'), 'not a folder');
    const bearer = await token(rt);

    const res = await request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${bearer}`).send({ municipio_id: '28079', periodo: '2025-07' });
    expectErrorBody(res, 500, 'REPORT_FAILED', null);
    expect(res.body.error.message).toContain('retry POST /api/v1/report');

    const [row] = await rowsOf(rt);
    expect(row).toMatchObject({ status: 'failed', fileKey: null, sizeBytes: null, sha256: null, error: expect.stringMatching(/EEXIST|ENOTDIR/) });
    expect(readdirSync(files)).toEqual(['reports']);
    const again = await request(rt.server!).get(`/api/v1/reports/${row!.id}`).set('Authorization', `Bearer ${bearer}`);
    expectErrorBody(again, 500, 'REPORT_FAILED', null);
    const list = await request(rt.server!).get('/api/v1/reports').set('Authorization', `Bearer ${bearer}`);
    expect(list.body.data).toEqual([expect.objectContaining({ report_id: row!.id, status: 'failed', size_bytes: null })]);
    await rt.close();
    started.pop();
  });

  it('answers 202 with the report’s URL when the file takes longer than the wait, 202 with Retry-After until a worker finishes it, then the file', async () => {
    // An API process alone, waiting 1 ms: the job stays queued until a worker process starts.
    const dataDir = unusedDataDir('wf');
    const api = await start('api', { WILDFIRE_REPORT_WAIT_MS: '1', DATA_DIR: dataDir });
    await storeReading(api, '41091', '2025-07-01', 45);
    const bearer = await token(api);

    const created = await request(api.server!).post('/api/v1/report').set('Authorization', `Bearer ${bearer}`).send({ municipio_id: '41091', periodo: '2025-07', format: 'csv' });
    expect(created.status).toBe(202);
    const id = created.headers['x-report-id'];
    expect(created.body).toEqual({ report_id: id, status: 'pending', status_url: `/api/v1/reports/${id}` });
    expect(created.headers.location).toBe(`/api/v1/reports/${id}`);
    expect(created.headers['retry-after']).toMatch(/^\d+$/);

    const pending = await request(api.server!).get(`/api/v1/reports/${id}`).set('Authorization', `Bearer ${bearer}`);
    expect([pending.status, pending.body, pending.headers['retry-after']]).toEqual([202, { report_id: id, status: 'pending', status_url: `/api/v1/reports/${id}` }, '2']);

    await start('worker', { DATA_DIR: dataDir });
    const done = await eventually(async () => {
      const res = await request(api.server!).get(`/api/v1/reports/${id}`).set('Authorization', `Bearer ${bearer}`);
      return res.status === 202 ? undefined : res;
    });
    expect(done.status).toBe(200);
    expect(done.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(done.text).toMatch(/^date,fwi,.*\r\n2025-07-01,45,/s);
    expect(existsSync(join(dataDir, 'wildfire', 'files', 'reports', `${id}.csv`))).toBe(true);
  });

  it('with Prefer: respond-async answers 202 at once (Preference-Applied, Location) while no worker runs, and a worker started later seals the PDF it then serves', async () => {
    // An API process alone, with the default 60 s wait: only the preference can make it answer before a worker exists.
    // A queue of its own: the worker of the test before must not take this job (it has another DATA_DIR).
    const own = { DATA_DIR: unusedDataDir('wf'), QUEUE_PREFIX: `${prefix}-async` };
    const api = await start('api', own);
    await storeReading(api, '28079', '2025-07-02', 33);
    const bearer = await token(api);

    const created = await request(api.server!)
      .post('/api/v1/report')
      .set('Authorization', `Bearer ${bearer}`)
      .set('Prefer', 'return=minimal, respond-async')
      .send({ municipio_id: '28079', periodo: '2025-07' });
    expect(created.status).toBe(202);
    const id = created.headers['x-report-id'];
    expect(created.body).toEqual({ report_id: id, status: 'pending', status_url: `/api/v1/reports/${id}` });
    expect([created.headers.location, created.headers['preference-applied'], created.headers.vary]).toEqual([`/api/v1/reports/${id}`, 'respond-async', 'Prefer']);
    expect(created.headers['x-ratelimit-remaining']).toBe('9');
    const [row] = (await rowsOf(api)).filter((r) => r.id === id);
    expect(row!.status).toBe('pending');

    await start('worker', own);
    const done = await eventually(async () => {
      const res = await request(api.server!)
        .get(`/api/v1/reports/${id}`)
        .set('Authorization', `Bearer ${bearer}`)
        .buffer(true)
        .parse((res, cb) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      return res.status === 202 ? undefined : res;
    });
    expect([done.status, done.headers['content-type']]).toEqual([200, 'application/pdf']);
    expect((await verifyWithTools(done.body as Buffer)).pdfsig.stdout).toContain('Signature is Valid');
  });

  it('without the preference (or with others only) waits for the file as before', async () => {
    const rt = await start('all', { QUEUE_PREFIX: `${prefix}-wait` });
    await storeReading(rt, '28079', '2025-07-03', 20);
    const res = await request(rt.server!)
      .post('/api/v1/report')
      .set('Authorization', `Bearer ${await token(rt)}`)
      .set('Prefer', 'return=representation')
      .send({ municipio_id: '28079', periodo: '2025-07', format: 'csv' });
    expect([res.status, res.headers['preference-applied']]).toEqual([200, undefined]);
  });
});
