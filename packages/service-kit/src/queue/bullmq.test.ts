import { randomUUID } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import {
  createBullMqQueue,
  createJobRegistry,
  defineJob,
  JobDeferredError,
  JobFailedError,
  JobPayloadError,
  JobRetryingError,
  JobWaitTimeoutError,
  startBullMqWorker,
  type JobContext,
  type JobHandlers,
  type RedisConnection,
} from './index';
import { withFirstAttemptHere } from './first-attempt-here';
import { deferred, recordingLogger, REDIS_URL, sampleEmailJob, sampleReminderJob } from './__tests__/helpers';

// Every key this file creates lives under its own prefix, removed in afterAll.
const PREFIX = `sk-test-bullmq-${randomUUID().slice(0, 8)}`;

const email = sampleEmailJob;
const reminder = sampleReminderJob;
// Removed from Redis as soon as it completes, as esign's seal is.
const ping = defineJob({ name: 'ping.now', schema: z.object({ n: z.number() }), removeOnComplete: true });
const registry = createJobRegistry([email, reminder, ping]);
type Registry = typeof registry;

const redis = new Redis(REDIS_URL);
const queueNames: string[] = [];
const openThisTest: { close(): Promise<void> }[] = [];

function newQueueName(): string {
  const name = `jobs-${queueNames.length + 1}`;
  queueNames.push(name);
  return name;
}

function handlersWith(overrides: Partial<JobHandlers<Registry>>): JobHandlers<Registry> {
  return { 'email.send': async () => undefined, 'envelope.remind': async () => undefined, 'ping.now': async (payload) => ({ pong: payload.n }), ...overrides };
}

interface Setup {
  connection?: RedisConnection;
  concurrency?: number;
  worker?: boolean;
}

/** A queue and (unless told otherwise) a worker on a fresh queue name, closed after the test. */
function setup(overrides: Partial<JobHandlers<Registry>>, { connection = REDIS_URL, concurrency, worker = true }: Setup = {}) {
  const queueName = newQueueName();
  const logger = recordingLogger();
  const queue = createBullMqQueue({ connection, queueName, prefix: PREFIX, registry, logger });
  openThisTest.push(queue);
  const started = worker
    ? startBullMqWorker({ connection, queueName, prefix: PREFIX, registry, handlers: handlersWith(overrides), concurrency, logger })
    : undefined;
  if (started) openThisTest.push(started);
  // For adding what our own queue refuses to add: stale or foreign jobs.
  const raw = new Queue(queueName, { connection: { url: REDIS_URL }, prefix: PREFIX });
  openThisTest.push(raw);
  return { queueName, logger, queue, worker: started, raw };
}

afterEach(async () => {
  // Workers first, so that nothing is still writing when the queues go.
  for (const closable of openThisTest.splice(0).reverse()) await closable.close();
});

afterAll(async () => {
  for (const name of queueNames) {
    const queue = new Queue(name, { connection: { url: REDIS_URL }, prefix: PREFIX });
    await queue.obliterate({ force: true });
    await queue.close();
  }
  const leftovers = await redis.keys(`${PREFIX}:*`);
  if (leftovers.length > 0) await redis.del(...leftovers);
  await redis.quit();
});

describe('BullMQ queue and worker', () => {
  it('processes an enqueued job with the validated payload (defaults applied) and its id', async () => {
    const seen = deferred<[unknown, JobContext]>();
    const { queue } = setup({ 'email.send': async (payload, ctx) => seen.resolve([payload, ctx]) });
    const { id } = await queue.enqueue('email.send', { to: 'ana@example.org' });
    const [payload, ctx] = await seen.promise;
    expect(payload).toEqual({ to: 'ana@example.org', template: 'welcome' });
    expect(ctx).toMatchObject({ jobId: id, attempt: 1 });
  });

  it("enqueueAndWait resolves with the handler's result", async () => {
    const { queue } = setup({ 'email.send': async (payload) => ({ sentTo: payload.to }) });
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 10_000 })).resolves.toEqual({
      sentTo: 'ana@example.org',
    });
  });

  it('retries a failing job with the policy of its definition, and enqueueAndWait waits through the retries', async () => {
    const attempts: number[] = [];
    const { queue } = setup({
      'email.send': async (_payload, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt < 3) throw new Error('SMTP unavailable');
        return 'sent';
      },
    });
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 10_000 })).resolves.toBe('sent');
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('runs a deferred job again after its delay without using an attempt (BullMQ delayed set), and enqueueAndWait waits through it', async () => {
    const attempts: number[] = [];
    // envelope.remind has attempts: 1, so a deferral that counted would fail the job.
    const { queue } = setup({
      'envelope.remind': async (_payload, ctx) => {
        attempts.push(ctx.attempt);
        if (attempts.length < 3) throw new JobDeferredError(5, 'account busy');
        return 'reminded';
      },
    });
    await expect(queue.enqueueAndWait('envelope.remind', { envelopeId: 'e1' }, { timeoutMs: 10_000 })).resolves.toBe('reminded');
    expect(attempts).toEqual([1, 1, 1]);
  });

  it('gives a job up after `attempts` failures; enqueueAndWait rejects with JobFailedError and the job is kept as failed', async () => {
    const handler = jest.fn(async () => {
      throw new Error('mailbox full');
    });
    const { queue, raw, logger } = setup({ 'email.send': handler });
    const wait = queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 10_000 });
    await expect(wait).rejects.toThrow(JobFailedError);
    await expect(wait).rejects.toThrow(/failed: mailbox full$/);
    expect(handler).toHaveBeenCalledTimes(3);
    const failed = await logger.waitFor((line) => line.msg === 'job failed; giving up');
    const job = await Job.fromId(raw, String(failed.obj.jobId));
    expect(await job?.getState()).toBe('failed');
  });

  it('enqueueAndWait rejects with JobWaitTimeoutError when the job outlasts the wait', async () => {
    const release = deferred();
    const finished = deferred();
    const { queue } = setup({
      'email.send': async () => {
        await release.promise;
        finished.resolve();
      },
    });
    try {
      await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 100 })).rejects.toThrow(
        JobWaitTimeoutError,
      );
    } finally {
      // Released whatever happened, so that closing the worker does not wait on it.
      release.resolve();
    }
    await finished.promise;
  });

  it("until: 'first-attempt' answers the first attempt's result", async () => {
    const { queue } = setup({ 'email.send': async (payload) => ({ sentTo: payload.to }) });
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 10_000, until: 'first-attempt' })).resolves.toEqual({ sentTo: 'ana@example.org' });
  });

  it("until: 'first-attempt' rejects with JobRetryingError when the first attempt fails, and the job goes on to succeed", async () => {
    const second = deferred();
    const { queue } = setup({
      'email.send': async (_payload, ctx) => {
        if (ctx.attempt === 1) throw new Error('SMTP unavailable');
        second.resolve();
        return 'sent';
      },
    });
    const wait = queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 10_000, until: 'first-attempt' });
    await expect(wait).rejects.toThrow(JobRetryingError);
    await second.promise;
  });

  it("hands a worker of this process the waiting enqueuer's in-memory value as ctx.local, and takes it back after the wait", async () => {
    const seen: (object | undefined)[] = [];
    const { queue } = setup({
      'email.send': async (_payload, ctx) => {
        seen.push(ctx.local);
        if (ctx.local) (ctx.local as { result?: string }).result = 'written by the handler';
        return 'sent';
      },
    });
    const local: { image: Buffer; result?: string } = { image: Buffer.from('png bytes') };
    await queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 10_000, until: 'first-attempt', local });
    expect(seen).toEqual([local]);
    expect(local.result).toBe('written by the handler');
    // A plain enqueue of the same kind carries nothing in memory.
    await queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 10_000 });
    expect(seen[1]).toBeUndefined();
  });

  it("refuses to wait for a delayed job's first attempt", async () => {
    const { queue } = setup({}, { worker: false });
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 1_000, until: 'first-attempt', delayMs: 10 })).rejects.toThrow(/delayed/);
  });

  it('waits for jobs removed as soon as they complete, from their completion events', async () => {
    const { queue } = setup({});
    for (let n = 0; n < 20; n++) await expect(queue.enqueueAndWait('ping.now', { n }, { timeoutMs: 10_000 })).resolves.toEqual({ pong: n });
  });

  it('answers at once for a deduplicated job whose run finished before the wait', async () => {
    let runs = 0;
    const { queue } = setup({ 'envelope.remind': async () => `reminded ${++runs}` });
    await expect(queue.enqueueAndWait('envelope.remind', { envelopeId: 'e9' }, { timeoutMs: 10_000 })).resolves.toBe('reminded 1');
    await expect(queue.enqueueAndWait('envelope.remind', { envelopeId: 'e9' }, { timeoutMs: 10_000 })).resolves.toBe('reminded 1');
    expect(runs).toBe(1);
  });

  it('ends a wait when the queue closes', async () => {
    const { queue, raw } = setup({}, { worker: false });
    const wait = queue.enqueueAndWait('ping.now', { n: 1 }, { timeoutMs: 60_000 }).then(
      () => new Error('expected the wait to fail'),
      (err: Error) => err,
    );
    // Closed once the job is in Redis and nobody runs it.
    while ((await raw.getWaitingCount()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await queue.close();
    expect((await wait).message).toMatch(/closed while waiting/);
  });

  it('firstAttemptHere: runs the first attempt in this process, with the local value, and nothing goes through Redis', async () => {
    const seen: (object | undefined)[] = [];
    const handlers = handlersWith({ 'ping.now': async (payload, ctx) => (seen.push(ctx.local), { pong: payload.n }) });
    const { queue, raw, logger } = setup({}, { worker: false });
    const here = withFirstAttemptHere(queue, { registry, handlers, logger });
    const local = { rows: 'in memory' };
    await expect(here.enqueueAndWait('ping.now', { n: 7 }, { timeoutMs: 5_000, until: 'first-attempt', local, firstAttemptHere: true })).resolves.toEqual({ pong: 7 });
    expect(seen).toEqual([local]);
    expect(await raw.getJobCounts('wait', 'delayed', 'active', 'completed', 'failed')).toEqual({ wait: 0, delayed: 0, active: 0, completed: 0, failed: 0 });
  });

  it('firstAttemptHere: a failed first attempt rejects with JobRetryingError and queues the job, which a worker then completes', async () => {
    const attempts: string[] = [];
    const failingHere = handlersWith({
      'email.send': async () => {
        attempts.push('here');
        throw new Error('SMTP unavailable');
      },
    });
    const done = deferred();
    const { queue, logger } = setup({
      'email.send': async () => {
        attempts.push('worker');
        done.resolve();
      },
    });
    const here = withFirstAttemptHere(queue, { registry, handlers: failingHere, logger });
    await expect(here.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 5_000, until: 'first-attempt', firstAttemptHere: true })).rejects.toThrow(JobRetryingError);
    await done.promise;
    expect(attempts).toEqual(['here', 'worker']);
  });

  it('adds a delayed job in the delayed state', async () => {
    const { queue, raw } = setup({}, { worker: false });
    const { id } = await queue.enqueue('email.send', { to: 'ana@example.org' }, { delayMs: 60_000 });
    expect(await (await Job.fromId(raw, id))?.getState()).toBe('delayed');
  });
});

describe('BullMQ queue: validation and dedupe at enqueue', () => {
  it('throws JobPayloadError for an invalid payload and adds nothing', async () => {
    const { queue, raw } = setup({}, { worker: false });
    await expect(queue.enqueue('email.send', { to: 'not an address' })).rejects.toThrow(JobPayloadError);
    const counts = await raw.getJobCounts();
    expect(Object.values(counts).reduce((sum, n) => sum + n, 0)).toBe(0);
  });

  it('uses the dedupe id as the job id, so a second enqueue of the same work adds nothing', async () => {
    const { queue, raw } = setup({}, { worker: false });
    const first = await queue.enqueue('envelope.remind', { envelopeId: 'e1' });
    const second = await queue.enqueue('envelope.remind', { envelopeId: 'e1' });
    expect(first).toEqual({ id: 'remind-e1' });
    expect(second).toEqual(first);
    expect(await raw.getWaitingCount()).toBe(1);
  });

  it('adds jobs with the retry policy of their definition', async () => {
    const { queue, raw } = setup({}, { worker: false });
    const { id } = await queue.enqueue('email.send', { to: 'ana@example.org' });
    const job = await Job.fromId(raw, id);
    expect(job?.opts).toMatchObject({ attempts: 3, backoff: { type: 'fixed', delay: 1 }, removeOnComplete: 100 });
  });
});

describe('BullMQ worker: jobs it cannot run', () => {
  it('fails a job whose stored payload is invalid at once, without retrying or calling the handler', async () => {
    const handler = jest.fn(async () => undefined);
    const { raw, logger } = setup({ 'email.send': handler });
    // As a producer running an older schema would have stored it.
    const added = await raw.add('email.send', { to: 42 }, { attempts: 3, backoff: { type: 'fixed', delay: 1 } });
    await logger.waitFor((line) => line.msg === 'job failed; giving up' && line.obj.jobId === added.id);
    const job = await Job.fromId(raw, String(added.id));
    expect(await job?.getState()).toBe('failed');
    expect(job?.attemptsMade).toBe(1);
    expect(job?.failedReason).toMatch(/^Invalid payload for job "email.send": to: /);
    expect(handler).not.toHaveBeenCalled();
  });

  it('skips a job with an unknown name with a warning, and keeps running the jobs after it', async () => {
    const processed = deferred<unknown>();
    const { raw, queue, logger } = setup({ 'email.send': async (payload) => processed.resolve(payload) }, { concurrency: 1 });
    const unknown = await raw.add('sms.send', { to: '+34600000000' });
    await queue.enqueue('email.send', { to: 'ana@example.org' });
    await expect(processed.promise).resolves.toEqual({ to: 'ana@example.org', template: 'welcome' });
    expect(await (await Job.fromId(raw, String(unknown.id)))?.getState()).toBe('completed');
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', obj: expect.objectContaining({ jobName: 'sms.send', jobId: unknown.id }) }),
    );
  });

  it('refuses to start without a handler for every job', () => {
    const handlers = { 'email.send': async () => undefined } as unknown as JobHandlers<Registry>;
    expect(() =>
      startBullMqWorker({ connection: REDIS_URL, queueName: 'never-started', registry, handlers, logger: recordingLogger() }),
    ).toThrow('no handler for "envelope.remind"');
  });
});

describe('BullMQ worker: shutdown and connections', () => {
  it('close waits for the active job to finish, and the job is completed', async () => {
    const started = deferred();
    const release = deferred();
    const order: string[] = [];
    const { queue, worker, raw, logger } = setup({
      'email.send': async () => {
        started.resolve();
        await release.promise;
        await redis.ping();
        order.push('job finished');
        return 'done';
      },
    });
    const { id } = await queue.enqueue('email.send', { to: 'ana@example.org' });
    await started.promise;
    const closed = worker!.close().then(() => order.push('worker closed'));
    await logger.waitFor((line) => line.msg === 'closing job worker; waiting for active jobs');
    release.resolve();
    await closed;
    expect(order).toEqual(['job finished', 'worker closed']);
    const job = await Job.fromId(raw, id);
    expect(await job?.getState()).toBe('completed');
    expect(job?.returnvalue).toBe('done');
  });

  it('works with an ioredis client shared with the service, and leaves it open', async () => {
    // ioredis' default maxRetriesPerRequest (20), which BullMQ refuses for workers.
    const shared = new Redis(REDIS_URL);
    try {
      const { queue, worker } = setup({ 'email.send': async (payload) => payload.to }, { connection: shared });
      await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 10_000 })).resolves.toBe(
        'ana@example.org',
      );
      await worker!.close();
      await queue.close();
      await expect(shared.ping()).resolves.toBe('PONG');
    } finally {
      await shared.quit();
    }
  });
});
