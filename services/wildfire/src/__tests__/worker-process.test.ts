import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import request from 'supertest';
import { eq } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { apiTokens } from '../tokens/tables';
import { unusedDataDir } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, eventually, REDIS_URL, testConfig, uniquePrefix } from './support';

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
