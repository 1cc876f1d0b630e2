import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createS3BlobStore } from '@firma-riesgo/service-kit';
import { createTestDatabase, startTestS3Server, unusedDataDir, type TestDatabase, type TestS3Server } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, eventually, REDIS_URL, storeReading, testConfig, uniquePrefix } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';

/**
 * Report files with WILDFIRE_STORAGE=postgres and s3: an API process and a worker that
 * share no folder (each its own DATA_DIR), only Postgres, Redis and the storage; and the
 * retention job deleting the file from the backend. (Local files: generation-jobs.test.ts, retention.test.ts.)
 */
describe.each(['postgres', 's3'] as const)('report files with WILDFIRE_STORAGE=%s', (kind) => {
  let db: TestDatabase;
  let s3: TestS3Server | undefined;
  const prefix = uniquePrefix();
  let now = new Date('2025-08-10T10:00:00Z');
  const started: WildfireRuntime[] = [];
  const storageEnv = (): Record<string, string> =>
    kind === 'postgres'
      ? { WILDFIRE_STORAGE: 'postgres' }
      : {
          WILDFIRE_STORAGE: 's3',
          S3_ENDPOINT: s3!.settings.endpoint!,
          S3_BUCKET: s3!.settings.bucket,
          S3_REGION: s3!.settings.region,
          S3_ACCESS_KEY_ID: s3!.settings.accessKeyId!,
          S3_SECRET_ACCESS_KEY: s3!.settings.secretAccessKey!,
          S3_FORCE_PATH_STYLE: 'true',
        };
  const start = async (role: 'api' | 'worker', env: Record<string, string>) => {
    const rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix, ...storageEnv(), ...env }), role, { clock: () => now });
    started.push(rt);
    return rt;
  };
  /** What the backend itself holds under a key, read around the service. */
  const storedBytes = async (rt: WildfireRuntime, key: string) => {
    if (kind === 'postgres') {
      const { rows } = await rt.database.pool.query<{ data: Buffer }>('select c.data from blobs b join blob_chunks c on c.version = b.version where b.key = $1 order by c.seq', [key]);
      return rows.length ? Buffer.concat(rows.map((r) => r.data)) : null;
    }
    const store = createS3BlobStore({ settings: s3!.settings, prefix: 'wildfire' });
    try {
      return await store.read(key);
    } finally {
      store.client.destroy();
    }
  };

  beforeAll(async () => {
    db = await createTestDatabase(`wildfire_report_storage_${kind}`);
    if (kind === 's3') s3 = await startTestS3Server('wildfire-blobs');
  });

  afterAll(async () => {
    for (const rt of started.reverse()) await rt.close();
    await db?.drop();
    await s3?.close();
    await clearRedisPrefix(prefix);
  });

  it('serves from the API the report a worker with another DATA_DIR generated, and the retention job deletes its file from the backend', async () => {
    const apiDir = unusedDataDir('wf');
    const workerDir = unusedDataDir('wf');
    const api = await start('api', { WILDFIRE_REPORT_WAIT_MS: '1', DATA_DIR: apiDir });
    await storeReading(api, '41091', '2025-07-01', 45);
    const { token } = await api.tokens.create({ account: `ayto-storage-${kind}`, type: 'live', scopes: ['reports:write', 'reports:read'] });
    const created = await request(api.server!).post('/api/v1/report').set('Authorization', `Bearer ${token}`).send({ municipio_id: '41091', periodo: '2025-07', format: 'csv' });
    expect(created.status).toBe(202);
    const id = created.headers['x-report-id'] as string;

    const worker = await start('worker', { DATA_DIR: workerDir });
    const done = await eventually(async () => {
      const res = await request(api.server!).get(`/api/v1/reports/${id}`).set('Authorization', `Bearer ${token}`);
      return res.status === 202 ? undefined : res;
    });
    expect(done.status).toBe(200);
    expect(done.text).toMatch(/^date,fwi,.*\r\n2025-07-01,45,/s);
    expect((await storedBytes(api, `reports/${id}.csv`))?.toString('utf8')).toBe(done.text);
    expect([existsSync(join(apiDir, 'wildfire', 'files')), existsSync(join(workerDir, 'wildfire', 'files'))]).toEqual([false, false]);

    // A year and a day later the retention job (run by the worker) deletes the file; the row answers 410.
    now = new Date('2026-08-11T10:00:00Z');
    await worker.jobs!.queue.enqueueAndWait('report.retention', {}, { timeoutMs: 30_000 });
    expect(await storedBytes(api, `reports/${id}.csv`)).toBeNull();
    const expired = await request(api.server!).get(`/api/v1/reports/${id}`).set('Authorization', `Bearer ${token}`);
    expect(expired.status).toBe(410);
  });

  it('runs the storage sweep in the worker: with postgres a crashed write\'s chunks past the hour of grace go, recent ones and live files stay', async () => {
    // Enqueued through the API started above; the worker started above runs it.
    const [api] = started;
    const pool = api!.database.pool;
    const stale = '00000000-0000-4000-8000-000000000001';
    const recent = '00000000-0000-4000-8000-000000000002';
    if (kind === 'postgres') {
      // As a write that crashed before switching its key leaves them; `now` is the runtime's clock.
      await pool.query('insert into blob_chunks (version, seq, data, created_at) values ($1, 0, $2, $3), ($1, 1, $2, $3)', [stale, Buffer.alloc(100, 1), new Date(now.getTime() - 2 * 3_600_000)]);
      await pool.query('insert into blob_chunks (version, seq, data, created_at) values ($1, 0, $2, $3)', [recent, Buffer.alloc(100, 2), new Date(now.getTime() - 60_000)]);
    }
    const liveBefore = (await pool.query<{ n: number }>('select count(*)::int as n from blob_chunks c join blobs b on b.version = c.version')).rows[0]!.n;
    const result = await api!.jobs.queue.enqueueAndWait('storage.sweep', {}, { timeoutMs: 30_000 });
    if (kind === 'postgres') {
      expect(result).toEqual({ ran: true, versions: 1, chunks: 2, bytes: 200 });
      const left = await pool.query<{ version: string }>('select distinct version::text from blob_chunks where version in ($1, $2)', [stale, recent]);
      expect(left.rows).toEqual([{ version: recent }]);
    } else {
      // Nothing to sweep in a bucket.
      expect(result).toEqual({ ran: false, versions: 0, chunks: 0, bytes: 0 });
    }
    expect((await pool.query<{ n: number }>('select count(*)::int as n from blob_chunks c join blobs b on b.version = c.version')).rows[0]!.n).toBe(liveBefore);
  });
});
