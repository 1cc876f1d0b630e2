import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { eq } from 'drizzle-orm';
import { createTestDatabase, lockWaiters, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { apiTokens } from '../tokens/tables';
import { unusedDataDir } from '@firma-riesgo/service-kit/testing';
import { reports } from '../reports/tables';
import { clearRedisPrefix, eventually, REDIS_URL, shortTempDir, testConfig, uniquePrefix, verifyWithTools } from './support';

const WORKER = join(__dirname, '..', '..', 'dist', 'worker.js');

describe('wildfire worker process', () => {
  let db: TestDatabase;
  let api: WildfireRuntime;
  let worker: ChildProcess;
  const prefix = uniquePrefix();

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_worker');
    const env = { WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix };
    // The API process only produces jobs; the worker is a separate OS process.
    api = await startWildfire(testConfig(env), 'api');
    worker = spawn(process.execPath, [WORKER], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', DATA_DIR: unusedDataDir('wf'), ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  });

  afterAll(async () => {
    if (worker.exitCode === null) worker.kill('SIGKILL');
    await api?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  it('records a token use enqueued by the API process from the separate worker process', async () => {
    expect(api.jobs.worker).toBeUndefined();
    const { token, record } = await api.tokens.create({ account: 'acme', type: 'live', scopes: ['risk:read'] });
    expect((await request(api.server!).get('/api/v1/me').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    const used = await eventually(async () => {
      const [row] = await api.database.db.select({ at: apiTokens.lastUsedAt }).from(apiTokens).where(eq(apiTokens.id, record.id));
      return row?.at ?? undefined;
    });
    expect(used).toBeInstanceOf(Date);
  });

  it('exits cleanly on SIGTERM', async () => {
    worker.kill('SIGTERM');
    const [code] = await once(worker, 'exit');
    expect(code).toBe(0);
  });
});

/**
 * Interface §8: a report whose worker process dies mid-job is finished by the
 * next worker. To catch the worker mid-job without changing what it runs, the test holds
 * a row lock on the report, so the job renders and stores the file and then waits on its
 * `pending → ready` update; the process is killed there (SIGKILL: no clean-up of any kind).
 */
describe('a report.generate job cut off by a killed worker process', () => {
  let db: TestDatabase;
  let api: WildfireRuntime;
  /** Holds the row lock. */
  let sql: pg.Client;
  /** Watches the backends (a session of its own: inside a transaction, pg_stat_activity would not change). */
  let probe: pg.Client;
  const prefix = uniquePrefix();
  const workers: ChildProcess[] = [];
  let env: Record<string, string>;

  const startWorker = () => {
    const child = spawn(process.execPath, [WORKER], { env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    // Postgres notices within 0.1 s that a killed client's connection is gone, even while its query waits on a lock.
    db = await createTestDatabase('wildfire_worker_kill', { deadClientCheckMs: 100 });
    // API and workers share DATA_DIR (the report files and the seal identity), as they must in production.
    // A claimed job of a dead worker is free again after 2 s instead of the default 30 s.
    env = { WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, DATA_DIR: shortTempDir(), WILDFIRE_JOB_STALLED_MS: '2000' };
    api = await startWildfire(testConfig(env), 'api');
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
  });

  afterAll(async () => {
    for (const child of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await sql?.end();
    await probe?.end();
    await api?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  it('a worker killed (SIGKILL) mid-job leaves the report pending; a new worker process finishes it, and it downloads sealed and whole', async () => {
    const { token } = await api.tokens.create({ account: 'ayto-kill', type: 'test', scopes: ['reports:write', 'reports:read'] });
    const auth = { Authorization: `Bearer ${token}` };
    const created = await request(api.server!).post('/api/v1/report').set(auth).set('Prefer', 'respond-async').send({ municipio_id: '41091', periodo: '2025-07' });
    expect(created.status).toBe(202);
    const id = created.headers['x-report-id'] as string;
    const file = join(env.DATA_DIR!, 'wildfire', 'files', 'reports', `${id}.pdf`);

    await sql.query('begin');
    await sql.query('select id from reports where id = $1 for update', [id]);
    const first = startWorker();
    // The job has rendered, sealed and stored the file, and waits to mark the row ready.
    const [waiter] = await eventually(async () => {
      const pids = await lockWaiters(probe);
      return pids.length === 1 ? pids : undefined;
    }, 600);
    expect(existsSync(file)).toBe(true);

    first.kill('SIGKILL');
    await once(first, 'exit');
    await eventually(async () => ((await lockWaiters(probe)).includes(waiter!) ? undefined : true));
    await sql.query('rollback');
    expect((await api.database.db.select({ status: reports.status }).from(reports).where(eq(reports.id, id)))[0]).toEqual({ status: 'pending' });
    expect((await request(api.server!).get(`/api/v1/reports/${id}`).set(auth)).status).toBe(202);

    startWorker();
    const done = await eventually(async () => {
      const res = await request(api.server!)
        .get(`/api/v1/reports/${id}`)
        .set(auth)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      return res.status === 202 ? undefined : res;
    }, 600);
    expect([done.status, done.headers['content-type']]).toEqual([200, 'application/pdf']);
    const pdf = done.body as Buffer;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const [row] = await api.database.db.select().from(reports).where(eq(reports.id, id));
    expect(row).toMatchObject({ status: 'ready', sizeBytes: pdf.length, sha256: createHash('sha256').update(pdf).digest('hex') });
    expect((await verifyWithTools(pdf)).pdfsig.stdout).toContain('Signature is Valid');
  });
});
