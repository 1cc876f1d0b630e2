import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, unusedDataDir, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, eventually, expectErrorBody, REDIS_URL, testConfig, uniquePrefix } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { reports } from './tables';

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

type Slot = { id: string; accountId: string; municipioId: string };

/**
 * The hook a report job runs once it holds its account's render slot. It records who
 * entered, holds the renders the test names until released, and records an overlap: a
 * report of the same account that entered before and is still pending (rendering) when
 * another enters, beyond the cap.
 */
function renderProbe(dbOf: () => WildfireRuntime['database']['db'], cap: number) {
  const entered: Slot[] = [];
  const overlaps: string[] = [];
  const holds = new Map<string, Deferred>();
  const watchers: { match(s: Slot): boolean; resolve(s: Slot): void }[] = [];
  return {
    entered,
    overlaps,
    /** Renders of this account and municipality wait in the hook until `release`. */
    hold(accountId: string, municipioId: string) {
      holds.set(`${accountId}:${municipioId}`, deferred());
    },
    release(accountId: string, municipioId: string) {
      holds.get(`${accountId}:${municipioId}`)?.resolve();
      holds.delete(`${accountId}:${municipioId}`);
    },
    entry(match: (s: Slot) => boolean): Promise<Slot> {
      const seen = entered.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => watchers.push({ match, resolve }));
    },
    async onRenderSlot(report: Slot) {
      const pending = await dbOf()
        .select({ id: reports.id })
        .from(reports)
        .where(and(eq(reports.accountId, report.accountId), eq(reports.status, 'pending')));
      const rendering = pending.filter((r) => r.id !== report.id && entered.some((e) => e.id === r.id));
      if (rendering.length >= cap) overlaps.push(`${report.id} entered while ${rendering.map((r) => r.id).join(', ')} rendered`);
      entered.push(report);
      for (const w of watchers.splice(0)) {
        if (w.match(report)) w.resolve(report);
        else watchers.push(w);
      }
      await holds.get(`${report.accountId}:${report.municipioId}`)?.promise;
    },
  };
}

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

/**
 * Test tokens (`pk_test_`) stay outside the rate limits (interface §5, §8); their reports'
 * cost is bounded instead: an identical request joins the one pending, a finished one
 * replaces the account's earlier one of the municipality and month, and no account renders
 * more than WILDFIRE_REPORT_ACCOUNT_CONCURRENCY reports at once, on any number of workers.
 */
describe('the cost of a test token’s reports', () => {
  let db: TestDatabase;
  const prefix = uniquePrefix();
  const started: WildfireRuntime[] = [];
  const now = new Date('2025-08-10T10:00:00Z');

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_test_token_bounds');
  });

  afterAll(async () => {
    for (const rt of started.reverse()) await rt.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  const post = (rt: WildfireRuntime, bearer: string, body: object, async = false) => {
    const req = request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${bearer}`);
    return (async ? req.set('Prefer', 'respond-async') : req).buffer(true).parse(binary).send(body);
  };
  const get = (rt: WildfireRuntime, bearer: string, path: string) => request(rt.server!).get(path).set('Authorization', `Bearer ${bearer}`).buffer(true).parse(binary);
  const ready = (rt: WildfireRuntime, bearer: string, id: string) =>
    eventually(async () => {
      const res = await get(rt, bearer, `/api/v1/reports/${id}`);
      return res.status === 202 ? undefined : res;
    });
  const testToken = async (rt: WildfireRuntime, account: string) => {
    const { token, record } = await rt.tokens.create({ account, type: 'test', scopes: ['reports:write', 'reports:read'] });
    return { token, accountId: record.accountId };
  };

  describe('on BullMQ with two worker processes', () => {
    let api: WildfireRuntime;
    let probe: ReturnType<typeof renderProbe>;

    beforeAll(async () => {
      probe = renderProbe(() => api.database.db, 2);
      const env = testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix, DATA_DIR: unusedDataDir('wf') });
      const options = { clock: () => now, reportRendering: { onRenderSlot: (r: Slot) => probe.onRenderSlot(r) } };
      api = await startWildfire(env, 'all', options);
      started.push(api);
      started.push(await startWildfire(env, 'worker', options));
    });

    const reportsDir = () => join(api.config.dataDir, 'wildfire', 'files', 'reports');

    it('renders once for many identical forced requests sent at once: each answers the same report, one row, one file', async () => {
      const { token, accountId } = await testToken(api, 'ayto-pruebas-carga');
      probe.hold(accountId, '28079');
      const body = { municipio_id: '28079', periodo: '2025-07', force: true };
      const answers = await Promise.all(Array.from({ length: 8 }, () => post(api, token, body, true)));
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(202));
      const ids = new Set(answers.map((a) => a.headers['x-report-id'] as string));
      expect(ids.size).toBe(1);
      const [id] = [...ids];

      await probe.entry((s) => s.id === id);
      probe.release(accountId, '28079');
      const done = await ready(api, token, id!);
      expect([done.status, done.headers['content-type']]).toEqual([200, 'application/pdf']);
      expect(probe.entered.filter((s) => s.accountId === accountId)).toHaveLength(1);
      expect(await api.database.db.select({ id: reports.id }).from(reports).where(eq(reports.accountId, accountId))).toEqual([{ id }]);
      expect(readdirSync(reportsDir()).filter((f) => f.startsWith(id!))).toEqual([`${id}.pdf`]);
    });

    it('replaces the account’s earlier test report of the municipality and month when a later one finishes: one row and one file remain, the old URL answers 404', async () => {
      const { token, accountId } = await testToken(api, 'ayto-pruebas-repite');
      const other = await post(api, token, { municipio_id: '41091', periodo: '2025-07', format: 'csv' });
      const first = await post(api, token, { municipio_id: '28079', periodo: '2025-07', force: true });
      expect([other.status, first.status]).toEqual([200, 200]);
      const firstId = first.headers['x-report-id'] as string;
      expect(existsSync(join(reportsDir(), `${firstId}.pdf`))).toBe(true);

      const second = await post(api, token, { municipio_id: '28079', periodo: '2025-07', force: true });
      expect(second.status).toBe(200);
      const secondId = second.headers['x-report-id'] as string;
      expect(secondId).not.toBe(firstId);
      expectErrorBody(await request(api.server!).get(`/api/v1/reports/${firstId}`).set('Authorization', `Bearer ${token}`), 404, 'REPORT_NOT_FOUND', 'report_id');
      expect(existsSync(join(reportsDir(), `${firstId}.pdf`))).toBe(false);

      // Another format of the same municipality and month replaces it too; another municipality's report stays.
      const third = await post(api, token, { municipio_id: '28079', periodo: '2025-07', format: 'csv', force: true });
      expect(third.status).toBe(200);
      const thirdId = third.headers['x-report-id'] as string;
      const rows = await api.database.db.select({ id: reports.id, municipioId: reports.municipioId }).from(reports).where(eq(reports.accountId, accountId));
      expect(rows.sort((a, b) => a.municipioId.localeCompare(b.municipioId))).toEqual([
        { id: thirdId, municipioId: '28079' },
        { id: other.headers['x-report-id'], municipioId: '41091' },
      ]);
      for (const id of [firstId, secondId]) expect(readdirSync(reportsDir()).some((f) => f.startsWith(id))).toBe(false);
      expect((await get(api, token, `/api/v1/reports/${thirdId}`)).body).toEqual(third.body);
      const listed = await request(api.server!).get('/api/v1/reports').set('Authorization', `Bearer ${token}`);
      expect(listed.body.total).toBe(2);
    });
  });

  describe.each([
    ['BullMQ, two worker processes', true],
    ['the in-process queue', false],
  ])('the per-account render cap on %s (WILDFIRE_REPORT_ACCOUNT_CONCURRENCY=1)', (_name, bullmq) => {
    let api: WildfireRuntime;
    let probe: ReturnType<typeof renderProbe>;

    beforeAll(async () => {
      probe = renderProbe(() => api.database.db, 1);
      const env = testConfig({
        WILDFIRE_DATABASE_URL: db.url,
        ...(bullmq ? { REDIS_URL, QUEUE_PREFIX: `${prefix}-cap` } : {}),
        RATE_LIMIT_PREFIX: prefix,
        DATA_DIR: unusedDataDir('wf'),
        WILDFIRE_REPORT_ACCOUNT_CONCURRENCY: '1',
      });
      const options = { clock: () => now, reportRendering: { onRenderSlot: (r: Slot) => probe.onRenderSlot(r), busyRetryMs: 20 } };
      api = await startWildfire(env, bullmq ? 'all' : 'api', options);
      started.push(api);
      if (bullmq) started.push(await startWildfire(env, 'worker', options));
    });

    it('queues an account’s second report until its first is done, while another account’s report goes ahead', async () => {
      const a = await testToken(api, `ayto-cupo-a-${bullmq}`);
      const b = await testToken(api, `ayto-cupo-b-${bullmq}`);
      probe.hold(a.accountId, '28079');
      const a1 = await post(api, a.token, { municipio_id: '28079', periodo: '2025-07', format: 'csv' }, true);
      const a1Id = a1.headers['x-report-id'] as string;
      await probe.entry((s) => s.id === a1Id);

      const a2 = await post(api, a.token, { municipio_id: '41091', periodo: '2025-07', format: 'csv' }, true);
      const b1 = await post(api, b.token, { municipio_id: '28079', periodo: '2025-07', format: 'csv' }, true);
      expect([a1.status, a2.status, b1.status]).toEqual([202, 202, 202]);
      const a2Id = a2.headers['x-report-id'] as string;

      // B's report is generated while A's first holds A's only slot; A's second, queued before it, waits.
      expect((await ready(api, b.token, b1.headers['x-report-id'] as string)).status).toBe(200);
      expect(probe.entered.map((s) => s.id)).not.toContain(a2Id);
      expect((await get(api, a.token, `/api/v1/reports/${a2Id}`)).status).toBe(202);

      probe.release(a.accountId, '28079');
      expect((await ready(api, a.token, a1Id)).status).toBe(200);
      expect((await ready(api, a.token, a2Id)).status).toBe(200);
      expect(probe.entered.filter((s) => s.accountId === a.accountId).map((s) => s.id)).toEqual([a1Id, a2Id]);
      expect(probe.overlaps).toEqual([]);
    });
  });
});
