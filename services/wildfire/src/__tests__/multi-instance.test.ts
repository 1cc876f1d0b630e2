import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { generateSelfSignedPkcs12 } from '@firma-riesgo/pdf-core';
import { createTestDatabase, lockWaiters, pdfFilesUnder, serviceProcesses, type ServiceProcess, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { clearRedisPrefix, eventually, REDIS_URL, shortTempDir, testConfig, uniquePrefix, verifyWithTools } from './support';

const DIST = join(__dirname, '..', '..', 'dist');

/**
 * Horizontal scaling on one machine: two wildfire API processes and a worker,
 * each with a DATA_DIR of its own, sharing only Postgres and Redis (WILDFIRE_STORAGE=postgres).
 * The sealing key is configuration (one WILDFIRE_SIGNING_P12_PATH given to every process,
 * as a mounted secret would be), not shared state. Real OS processes from the compiled output.
 */
describe('wildfire scaled out: two APIs and a worker sharing only Postgres and Redis', () => {
  const processes = serviceProcesses();
  /** The DATA_DIR of each process started. */
  const dirs: string[] = [];
  const secrets = shortTempDir();
  const prefix = uniquePrefix();
  let db: TestDatabase;
  let cli: WildfireRuntime;
  /** Holds a row lock to catch the worker mid-job. */
  let sql: pg.Client;
  /** Watches the backends (a session of its own). */
  let probe: pg.Client;
  let env: Record<string, string>;

  const start = (name: string, entry: 'api.js' | 'worker.js'): ServiceProcess => {
    const dataDir = shortTempDir();
    dirs.push(dataDir);
    return processes.start(name, join(DIST, entry), { ...env, DATA_DIR: dataDir });
  };

  beforeAll(async () => {
    // Postgres notices within 0.1 s that a killed client's connection is gone, even while its query waits on a lock.
    db = await createTestDatabase('wildfire_multi', { deadClientCheckMs: 100 });
    mkdirSync(secrets, { recursive: true });
    writeFileSync(join(secrets, 'seal.p12'), generateSelfSignedPkcs12({ commonName: 'wildfire scaled-out seal' }), { mode: 0o600 });
    env = {
      WILDFIRE_DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      RATE_LIMIT_PREFIX: `${prefix}-rl`,
      WILDFIRE_STORAGE: 'postgres',
      WILDFIRE_SIGNING_P12_PATH: join(secrets, 'seal.p12'),
      // A claimed job of a dead worker is free again after 2 s instead of the default 30 s.
      WILDFIRE_JOB_STALLED_MS: '2000',
      WILDFIRE_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    };
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
  });

  afterAll(async () => {
    await processes.killAll();
    await sql?.end();
    await probe?.end();
    await cli?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    for (const dir of [...dirs, secrets]) rmSync(dir, { recursive: true, force: true });
  });

  it('a report created on A is served by B; its worker killed (SIGKILL) mid-report, a new worker finishes it; no PDF on any disk', async () => {
    const [a, b] = [start('api A', 'api.js'), start('api B', 'api.js')];
    const [urlA, urlB] = await Promise.all([a.listening, b.listening]);
    cli = await startWildfire(testConfig(env), 'cli');
    const { token } = await cli.tokens.create({ account: 'ayto-scaled', type: 'test', scopes: ['reports:write', 'reports:read'] });
    const auth = { Authorization: `Bearer ${token}` };

    const created = await request(urlA).post('/api/v1/report').set(auth).set('Prefer', 'respond-async').send({ municipio_id: '41091', periodo: '2025-07' });
    expect(created.status).toBe(202);
    const id = created.headers['x-report-id'] as string;
    expect((await request(urlB).get(`/api/v1/reports/${id}`).set(auth)).status).toBe(202);

    // The test holds the report's row lock: the job renders and seals, then waits to mark it ready.
    await sql.query('begin');
    await sql.query('select id from reports where id = $1 for update', [id]);
    const firstWorker = start('worker 1', 'worker.js');
    const [waiter] = await eventually(async () => {
      const pids = await lockWaiters(probe);
      return pids.length === 1 ? pids : undefined;
    }, 1200).catch((err: Error) => {
      throw new Error(`${err.message}: no job waited on the held row lock; worker 1 said:\n${firstWorker.output.join('\n')}`);
    });
    await firstWorker.kill();
    await eventually(async () => ((await lockWaiters(probe)).includes(waiter!) ? undefined : true));
    await sql.query('rollback');
    expect((await probe.query('select status from reports where id = $1', [id])).rows).toEqual([{ status: 'pending' }]);
    expect((await request(urlB).get(`/api/v1/reports/${id}`).set(auth)).status).toBe(202);

    start('worker 2', 'worker.js');
    const pdf = await eventually(
      async () => {
        const res = await fetch(`${urlB}/api/v1/reports/${id}`, { headers: auth });
        const body = Buffer.from(await res.arrayBuffer());
        return res.status === 200 ? { body, type: res.headers.get('content-type') } : undefined;
      },
      600,
      100,
    );
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const [row] = (await probe.query<{ status: string; sha256: string }>('select status, sha256 from reports where id = $1', [id])).rows;
    expect(row).toEqual({ status: 'ready', sha256: createHash('sha256').update(pdf.body).digest('hex') });
    expect((await verifyWithTools(pdf.body)).pdfsig.stdout).toContain('Signature is Valid');
    // A serves the same bytes.
    const fromA = await fetch(`${urlA}/api/v1/reports/${id}`, { headers: auth });
    expect(createHash('sha256').update(Buffer.from(await fromA.arrayBuffer())).digest('hex')).toBe(row!.sha256);

    expect(dirs).toHaveLength(4);
    for (const dir of dirs) expect(pdfFilesUnder(dir)).toEqual([]);
  }, 180_000);
});
