import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../runtime';
import { unusedDataDir } from '@firma-riesgo/service-kit/testing';
import { startSmtpSink, testConfig, TEST_AT_REST_KEY, uniquePrefix } from './support';

const REDIS_URL = 'redis://127.0.0.1:6379';
const WORKER = join(__dirname, '..', '..', 'dist', 'worker.js');

describe('esign worker process', () => {
  let db: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let api: EsignRuntime;
  let worker: ChildProcess;
  const prefix = uniquePrefix();

  beforeAll(async () => {
    db = await createTestDatabase('esign_worker');
    smtp = await startSmtpSink();
    const env = { ESIGN_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, SMTP_URL: smtp.url, ESIGN_AT_REST_KEY: TEST_AT_REST_KEY };
    // The API process only produces jobs; the worker is a separate OS process.
    api = await startEsign(testConfig(env), 'api');
    worker = spawn(process.execPath, [WORKER], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', DATA_DIR: unusedDataDir('es'), ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  });

  afterAll(async () => {
    if (worker.exitCode === null) worker.kill('SIGKILL');
    await api?.close();
    await smtp?.close();
    await db?.drop();
  });

  it('sends an email enqueued by the API process from the separate worker process', async () => {
    expect(worker.pid).toBeDefined();
    expect(worker.pid).not.toBe(process.pid);
    const emailId = await api.mail.queue({ to: 'eva@example.test', subject: 'Cross-process', text: 'Hola' });
    await api.jobs.queue.enqueue('email.send', { emailId });
    const mail = await smtp.waitFor((m) => m.to.includes('eva@example.test'));
    expect(mail.raw).toContain('Subject: Cross-process');
  });

  it('exits cleanly on SIGTERM', async () => {
    worker.kill('SIGTERM');
    const [code] = await once(worker, 'exit');
    expect(code).toBe(0);
  });
});
