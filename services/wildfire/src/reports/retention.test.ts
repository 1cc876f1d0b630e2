import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import request from 'supertest';
import { createFileStore, runIfUnlocked } from '@firma-riesgo/service-kit';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, expectErrorBody, REDIS_URL, storeReading, testConfig, uniquePrefix } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { createPurgeExpiredFiles } from './purge-expired-files';
import { createReportsRepository } from './repository';
import { expiryOf } from './rules';
import { reports } from './tables';

/**
 * The `report.retention` job (interface §8: reports are kept 12 months; a test token's, 3 days
 * here by WILDFIRE_TEST_REPORT_RETENTION_DAYS) on Postgres and BullMQ, with the service's clock moved.
 */
describe('report retention', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();
  let now = new Date('2025-01-15T10:00:00Z');

  const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  };
  const get = (bearer: string, path: string) => request(rt.server!).get(path).set('Authorization', `Bearer ${bearer}`);
  const download = (bearer: string, path: string) => get(bearer, path).buffer(true).parse(binary);
  const fileOf = (id: string) => join(rt.config.dataDir, 'wildfire', 'files', 'reports', `${id}.csv`);
  const rowOf = async (id: string) => (await rt.database.db.select().from(reports).where(eq(reports.id, id)))[0]!;
  const runRetention = () => rt.jobs.queue.enqueueAndWait('report.retention', {}, { timeoutMs: 30_000 });

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_retention');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix, WILDFIRE_TEST_REPORT_RETENTION_DAYS: '3' }), 'all', {
      clock: () => now,
    });
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  it('deletes the files of reports past their expiry and keeps their rows: 410 REPORT_EXPIRED, listed as expired; younger reports keep their files; a second run finds nothing', async () => {
    const { token } = await rt.tokens.create({ account: 'ayto-retencion', type: 'live', scopes: ['reports:write', 'reports:read'] });
    await storeReading(rt, '41091', '2024-12-01', 20);
    await storeReading(rt, '41091', '2025-08-01', 30);
    const create = async (periodo: string) => {
      const res = await request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${token}`).send({ municipio_id: '41091', periodo, format: 'csv' });
      expect(res.status).toBe(200);
      return { id: res.headers['x-report-id'] as string, bytes: Buffer.from(res.text, 'utf8') };
    };
    now = new Date('2025-01-15T10:00:00Z');
    const old = await create('2024-12');
    now = new Date('2025-09-01T08:00:00Z');
    const young = await create('2025-08');
    expect(existsSync(fileOf(old.id))).toBe(true);
    const oldRow = await rowOf(old.id);

    // One second past the old report's expiry (2026-01-15T10:00:00Z); the young one has until 2026-09-01.
    now = new Date('2026-01-15T10:00:01Z');
    expect(await runRetention()).toEqual({ ran: true, removed: 1, failed: 0, testReportsDeleted: 0 });

    expect(existsSync(fileOf(old.id))).toBe(false);
    expect(await rowOf(old.id)).toEqual({ ...oldRow, fileKey: null });
    expectErrorBody(await get(token, `/api/v1/reports/${old.id}`), 410, 'REPORT_EXPIRED', 'report_id');
    const data = (await get(token, '/api/v1/reports')).body.data as { report_id: string; status: string; sha256: string | null }[];
    expect(data.map((r) => [r.report_id, r.status])).toEqual([
      [young.id, 'ready'],
      [old.id, 'expired'],
    ]);
    expect(data[1]!.sha256).toBe(oldRow.sha256);

    expect(existsSync(fileOf(young.id))).toBe(true);
    const again = await download(token, `/api/v1/reports/${young.id}`);
    expect([again.status, (again.body as Buffer).equals(young.bytes)]).toEqual([200, true]);

    expect(await runRetention()).toEqual({ ran: true, removed: 0, failed: 0, testReportsDeleted: 0 });
    expect(await rt.database.db.select({ id: reports.id }).from(reports)).toHaveLength(2);
  });

  it('deletes a test token’s report, file and row, once WILDFIRE_TEST_REPORT_RETENTION_DAYS have passed (404 from then on), and keeps a live token’s report of the same day', async () => {
    const test = (await rt.tokens.create({ account: 'ayto-pruebas', type: 'test', scopes: ['reports:write', 'reports:read'] })).token;
    const live = (await rt.tokens.create({ account: 'ayto-real', type: 'live', scopes: ['reports:write', 'reports:read'] })).token;
    await storeReading(rt, '28079', '2025-02-01', 25);
    now = new Date('2025-03-10T10:00:00Z');
    const create = async (bearer: string) => {
      const res = await request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${bearer}`).send({ municipio_id: '28079', periodo: '2025-02', format: 'csv' });
      expect(res.status).toBe(200);
      return res.headers['x-report-id'] as string;
    };
    const testId = await create(test);
    const liveId = await create(live);
    const listed = (await get(test, '/api/v1/reports')).body.data as { report_id: string; expires_at: string }[];
    expect(listed).toEqual([expect.objectContaining({ report_id: testId, expires_at: '2025-03-13T10:00:00.000Z' })]);

    // A second before the three days are up: kept.
    now = new Date('2025-03-13T09:59:59Z');
    expect(await runRetention()).toEqual({ ran: true, removed: 0, failed: 0, testReportsDeleted: 0 });
    expect((await download(test, `/api/v1/reports/${testId}`)).status).toBe(200);

    now = new Date('2025-03-13T10:00:00Z');
    expect(await runRetention()).toEqual({ ran: true, removed: 1, failed: 0, testReportsDeleted: 1 });
    expect(existsSync(fileOf(testId))).toBe(false);
    expect(await rt.database.db.select().from(reports).where(eq(reports.id, testId))).toEqual([]);
    expectErrorBody(await get(test, `/api/v1/reports/${testId}`), 404, 'REPORT_NOT_FOUND', 'report_id');
    expect((await get(test, '/api/v1/reports')).body).toMatchObject({ total: 0, data: [] });

    expect(existsSync(fileOf(liveId))).toBe(true);
    expect((await download(live, `/api/v1/reports/${liveId}`)).status).toBe(200);
    expect(await runRetention()).toEqual({ ran: true, removed: 0, failed: 0, testReportsDeleted: 0 });
  });

  describe('the purge itself', () => {
    const repo = () => createReportsRepository(rt.database.db);
    const root = () => join(rt.config.dataDir, 'wildfire', 'files');
    const account = async () => (await rt.tokens.create({ account: 'ayto-lotes', type: 'live', scopes: ['reports:read'] })).record.accountId;

    /** `n` ready csv reports created at `createdAt`, each with its file. */
    async function readyReports(n: number, createdAt: Date): Promise<string[]> {
      const accountId = await account();
      const files = createFileStore(root());
      const ids: string[] = [];
      for (let i = 0; i < n; i += 1) {
        const id = randomUUID();
        await repo().insert({ id, accountId, municipioId: '28079', periodo: '2024-11', format: 'csv', lang: 'es', source: 'observed', provisional: false, createdAt, expiresAt: expiryOf(createdAt) });
        await files.write(`reports/${id}.csv`, Buffer.from(`report ${i}\r\n`));
        await repo().markReady(id, { fileKey: `reports/${id}.csv`, sizeBytes: 10, sha256: 'ab'.repeat(32) }, createdAt);
        ids.push(id);
      }
      return ids;
    }

    function logger() {
      const lines: { obj: object; msg?: string }[] = [];
      return { lines, info: (obj: object, msg?: string) => void lines.push({ obj, msg }), warn: (obj: object, msg?: string) => void lines.push({ obj, msg }), error: () => undefined };
    }

    it('works through many reports in batches, counts a file it cannot delete as failed and keeps its file_key for the next run, and logs counts only', async () => {
      now = new Date('2026-03-01T00:00:00Z');
      const ids = await readyReports(5, new Date('2025-02-01T00:00:00Z'));
      // Where one report's file should be, a folder that rm without recursion refuses.
      const stuck = ids[2]!;
      await createFileStore(root()).remove(`reports/${stuck}.csv`);
      mkdirSync(join(root(), 'reports', `${stuck}.csv`));
      writeFileSync(join(root(), 'reports', `${stuck}.csv`, 'inside'), 'x');

      const purge = createPurgeExpiredFiles({ repo: repo(), files: createFileStore(root()), clock: () => now, exclusive: (name, work) => runIfUnlocked(rt.database, name, work), batchSize: 2, testRetentionDays: 7 });
      const log = logger();
      expect(await purge(log)).toEqual({ ran: true, removed: 4, failed: 1, testReportsDeleted: 0 });
      for (const id of ids) expect(existsSync(join(root(), 'reports', `${id}.csv`))).toBe(id === stuck);
      const rows = await rt.database.db.select({ id: reports.id, fileKey: reports.fileKey }).from(reports);
      expect(rows.filter((r) => ids.includes(r.id) && r.fileKey !== null).map((r) => r.id)).toEqual([stuck]);
      // Counts and an error code; no report id, file name or path.
      const text = JSON.stringify(log.lines);
      for (const id of ids) expect(text).not.toContain(id);
      expect(log.lines.at(-1)).toEqual({ obj: { ran: true, removed: 4, failed: 1, testReportsDeleted: 0 }, msg: 'deleted the files of expired reports' });

      // Once the folder is cleared, the next run deletes what is left.
      await createFileStore(root()).removeTree(`reports/${stuck}.csv`);
      expect(await purge(log)).toEqual({ ran: true, removed: 1, failed: 0, testReportsDeleted: 0 });
    });

    it('deletes a test report generated under the 12 months of before once it is older than the configured days, and keeps a younger one', async () => {
      now = new Date('2026-03-05T00:00:00Z');
      const accountId = await account();
      const files = createFileStore(root());
      const legacy = async (createdAt: Date) => {
        const id = randomUUID();
        await repo().insert({ id, accountId, municipioId: '28079', periodo: '2026-02', format: 'csv', lang: 'es', source: 'synthetic', provisional: false, createdAt, expiresAt: expiryOf(createdAt) });
        await files.write(`reports/${id}.csv`, Buffer.from('synthetic\r\n'));
        await repo().markReady(id, { fileKey: `reports/${id}.csv`, sizeBytes: 11, sha256: 'cd'.repeat(32) }, createdAt);
        return id;
      };
      const eightDays = await legacy(new Date('2026-02-25T00:00:00Z'));
      const sixDays = await legacy(new Date('2026-02-27T00:00:00Z'));
      const purge = createPurgeExpiredFiles({ repo: repo(), files, clock: () => now, exclusive: (name, work) => runIfUnlocked(rt.database, name, work), testRetentionDays: 7 });
      expect(await purge(logger())).toEqual({ ran: true, removed: 1, failed: 0, testReportsDeleted: 1 });
      const left = (await rt.database.db.select({ id: reports.id }).from(reports)).map((r) => r.id);
      expect([left.includes(eightDays), left.includes(sixDays)]).toEqual([false, true]);
      expect([existsSync(join(root(), 'reports', `${eightDays}.csv`)), existsSync(join(root(), 'reports', `${sixDays}.csv`))]).toEqual([false, true]);
    });

    it('skips the run while another instance holds the retention lock', async () => {
      now = new Date('2026-03-01T00:00:00Z');
      const [id] = await readyReports(1, new Date('2025-02-01T00:00:00Z'));
      const other = new pg.Client({ connectionString: db.url });
      await other.connect();
      try {
        await other.query('select pg_advisory_lock(hashtext($1))', ['wildfire:report-retention']);
        const purge = createPurgeExpiredFiles({ repo: repo(), files: createFileStore(root()), clock: () => now, exclusive: (name, work) => runIfUnlocked(rt.database, name, work), testRetentionDays: 7 });
        expect(await purge(logger())).toEqual({ ran: false, removed: 0, failed: 0, testReportsDeleted: 0 });
        expect(existsSync(join(root(), 'reports', `${id}.csv`))).toBe(true);
        await other.query('select pg_advisory_unlock(hashtext($1))', ['wildfire:report-retention']);
        expect(await purge(logger())).toEqual({ ran: true, removed: 1, failed: 0, testReportsDeleted: 0 });
      } finally {
        await other.end();
      }
    });
  });
});
