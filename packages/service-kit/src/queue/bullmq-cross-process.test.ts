import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { createBullMqQueue, createJobRegistry, defineJob } from './index';
import { REDIS_URL } from './__tests__/helpers';

/**
 * The production shape: the API process enqueues, a worker in another OS process
 * runs the job. The worker is __fixtures__/worker-process.js, on the compiled package
 * (`npm test` builds it first with `tsc -b`).
 */
const PREFIX = `sk-test-xproc-${randomUUID().slice(0, 8)}`;
const QUEUE_NAME = 'cross-process';
const PROOF_KEY = `${PREFIX}:proof`;
const RELEASE_KEY = `${PREFIX}:release`;
const FIXTURE = path.join(__dirname, '__fixtures__', 'worker-process.js');
const COMPILED = path.join(__dirname, '..', '..', 'dist', 'queue', 'index.js');

// The same definitions as the fixture's registry.
const registry = createJobRegistry([
  defineJob({ name: 'proof.record', schema: z.object({ token: z.string() }), attempts: 1 }),
  defineJob({ name: 'proof.slow', schema: z.object({ token: z.string() }), attempts: 1 }),
]);

interface Proof {
  event: 'ran' | 'started' | 'closing';
  pid: number;
  token?: string;
  jobId?: string;
}

const redis = new Redis(REDIS_URL);
// BLPOP holds its connection, so proofs are awaited on a connection of their own.
const proofReader = new Redis(REDIS_URL);
const queue = createBullMqQueue({ connection: REDIS_URL, queueName: QUEUE_NAME, prefix: PREFIX, registry });
let child: ChildProcess;
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
let childStderr = '';

/** Waits for the worker process's next proof; the timeout only keeps a broken run from hanging. */
async function nextProof(): Promise<Proof> {
  const popped = await proofReader.blpop(PROOF_KEY, 20);
  if (!popped) throw new Error(`No proof from the worker process within 20 s. Its stderr:\n${childStderr}`);
  return JSON.parse(popped[1]) as Proof;
}

beforeAll(async () => {
  if (!existsSync(COMPILED)) {
    throw new Error(`${COMPILED} is missing: build it with \`npx tsc -b packages/service-kit\` (npm test does it first)`);
  }
  child = fork(FIXTURE, [], {
    env: { ...process.env, REDIS_URL, QUEUE_NAME, QUEUE_PREFIX: PREFIX, PROOF_KEY, RELEASE_KEY },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    childStderr += chunk.toString();
  });
  exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve, reject) => {
    child.once('message', (message) => (message === 'ready' ? resolve() : reject(new Error(`Unexpected message ${String(message)}`))));
    void exited.then(({ code }) => reject(new Error(`The worker process exited (code ${code}) before it was ready:\n${childStderr}`)));
  });
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
  await queue.close();
  const raw = new Queue(QUEUE_NAME, { connection: { url: REDIS_URL }, prefix: PREFIX });
  await raw.obliterate({ force: true });
  await raw.close();
  const leftovers = await redis.keys(`${PREFIX}:*`);
  if (leftovers.length > 0) await redis.del(...leftovers);
  await Promise.all([redis.quit(), proofReader.quit()]);
});

describe('BullMQ across processes', () => {
  it('runs a job enqueued in this process in the worker process, with its payload', async () => {
    const { id } = await queue.enqueue('proof.record', { token: 'first' });
    const proof = await nextProof();
    expect(proof).toEqual({ event: 'ran', pid: child.pid, token: 'first', jobId: id });
    expect(proof.pid).not.toBe(process.pid);
  });

  it('returns to enqueueAndWait the result computed in the worker process', async () => {
    const result = await queue.enqueueAndWait('proof.record', { token: 'second' }, { timeoutMs: 20_000 });
    expect(result).toEqual({ pid: child.pid, token: 'second' });
    expect((result as { pid: number }).pid).not.toBe(process.pid);
    await expect(nextProof()).resolves.toMatchObject({ event: 'ran', token: 'second' });
  });

  it("waits for the first attempt in the worker process, which never sees the enqueuer's in-memory value", async () => {
    const local = { rows: 'held in this process' };
    const result = await queue.enqueueAndWait('proof.record', { token: 'third' }, { timeoutMs: 20_000, until: 'first-attempt', local });
    expect(result).toEqual({ pid: child.pid, token: 'third' });
    // The proof carries `local: true` only when the handler was given a value.
    await expect(nextProof()).resolves.toEqual({ event: 'ran', pid: child.pid, token: 'third', jobId: expect.any(String) });
  });

  it('on SIGTERM, the worker process finishes its active job, then exits by itself', async () => {
    const { id } = await queue.enqueue('proof.slow', { token: 'slow' });
    await expect(nextProof()).resolves.toMatchObject({ event: 'started', token: 'slow' });
    child.kill('SIGTERM');
    await expect(nextProof()).resolves.toMatchObject({ event: 'closing' });
    await redis.rpush(RELEASE_KEY, 'go');
    await expect(exited).resolves.toEqual({ code: 0, signal: null });
    const raw = new Queue(QUEUE_NAME, { connection: { url: REDIS_URL }, prefix: PREFIX });
    try {
      const job = await Job.fromId(raw, id);
      expect(await job?.getState()).toBe('completed');
      expect(job?.returnvalue).toEqual({ pid: child.pid, token: 'slow' });
    } finally {
      await raw.close();
    }
  });
});
