import { rmSync } from 'node:fs';
import { Queue } from 'bullmq';
import pg from 'pg';
import { clearRedisPrefix, createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../runtime';
import { shortTempDir, testConfig, uniquePrefix } from '../__tests__/support';
import { RECOVERY_SWEEP_LOCK } from './jobs';

/**
 * The recovery sweep runs as the repeatable job `recovery.sweep`: a worker declares it every
 * ESIGN_RECOVERY_INTERVAL_MS (one BullMQ scheduler, however many workers), and a run skips
 * its round while another instance holds the sweep's advisory lock.
 */
describe('the recovery sweep as a repeatable job', () => {
  let db: TestDatabase;
  let worker: EsignRuntime;
  const prefix = uniquePrefix();
  const dataDir = shortTempDir();

  beforeAll(async () => {
    db = await createTestDatabase('esign_recovery_job');
    worker = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, DATA_DIR: dataDir, ESIGN_RECOVERY_INTERVAL_MS: '120000' }), 'worker');
  });

  afterAll(async () => {
    await worker?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is declared by a worker as one scheduler, every ESIGN_RECOVERY_INTERVAL_MS', async () => {
    const raw = new Queue('esign', { connection: { url: TEST_REDIS_URL }, prefix });
    try {
      const schedulers = await raw.getJobSchedulers();
      expect(schedulers.filter((s) => s.key === 'recovery.sweep')).toEqual([expect.objectContaining({ every: 120_000 })]);
    } finally {
      await raw.close();
    }
  });

  it('skips its round while another instance holds the sweep lock, and sweeps once the lock is free', async () => {
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock(hashtext($1))', [RECOVERY_SWEEP_LOCK]);
      await expect(worker.jobs.queue.enqueueAndWait('recovery.sweep', {}, { timeoutMs: 30_000 })).resolves.toEqual({ ran: false });
      await other.query('select pg_advisory_unlock(hashtext($1))', [RECOVERY_SWEEP_LOCK]);
      await expect(worker.jobs.queue.enqueueAndWait('recovery.sweep', {}, { timeoutMs: 30_000 })).resolves.toEqual({
        ran: true,
        value: { emails: 0, seals: 0, finalisations: 0, webhooks: { events: 0, deliveries: 0 } },
      });
    } finally {
      await other.end();
    }
  });
});
