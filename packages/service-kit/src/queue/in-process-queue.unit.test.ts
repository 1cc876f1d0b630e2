import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod';
import {
  createInProcessQueue,
  createJobRegistry,
  defineJob,
  JobDeferredError,
  JobFailedError,
  JobPayloadError,
  JobRetryingError,
  JobWaitTimeoutError,
  UnknownJobError,
  type JobContext,
  type JobHandlers,
} from './index';
import { retryDelayMs } from './in-process-queue';
import { deferred, nextMacrotask, recordingLogger, sampleEmailJob, sampleReminderJob } from './__tests__/helpers';

const email = sampleEmailJob;
const reminder = sampleReminderJob;
const slow = defineJob({ name: 'report.build', schema: z.object({ id: z.string() }), attempts: 1, timeoutMs: 20 });
const registry = createJobRegistry([email, reminder, slow]);
type Registry = typeof registry;

/** Handlers that do nothing unless a test replaces one. */
function handlersWith(overrides: Partial<JobHandlers<Registry>>): JobHandlers<Registry> {
  return {
    'email.send': async () => undefined,
    'envelope.remind': async () => undefined,
    'report.build': async () => undefined,
    ...overrides,
  };
}

function queueWith(overrides: Partial<JobHandlers<Registry>>, concurrency?: number) {
  const logger = recordingLogger();
  const queue = createInProcessQueue({ registry, handlers: handlersWith(overrides), logger, concurrency });
  return { queue, logger };
}

describe('in-process queue: running jobs', () => {
  it('runs the handler after enqueue has returned, with the validated payload (defaults applied) and the job id', async () => {
    const calls: [unknown, JobContext][] = [];
    const { queue } = queueWith({
      'email.send': async (payload, ctx) => {
        calls.push([payload, ctx]);
      },
    });
    const { id } = await queue.enqueue('email.send', { to: 'ana@example.org' });
    expect(calls).toHaveLength(0);
    await queue.drain();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[0]).toEqual({ to: 'ana@example.org', template: 'welcome' });
    expect(calls[0]?.[1]).toMatchObject({ jobId: id, attempt: 1 });
  });

  it("runs the handler outside the enqueuer's async context (its transaction, its request)", async () => {
    const requestScope = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const { queue } = queueWith({
      'email.send': async () => {
        seen.push(requestScope.getStore());
      },
    });
    await requestScope.run('request-1', () => queue.enqueue('email.send', { to: 'ana@example.org' }));
    await queue.drain();
    expect(seen).toEqual([undefined]);
  });

  it('gives the handler a logger that tags its lines with the job', async () => {
    const { queue, logger } = queueWith({
      'envelope.remind': async (_payload, ctx) => ctx.logger.info({ step: 'sent' }, 'reminder sent'),
    });
    const { id } = await queue.enqueue('envelope.remind', { envelopeId: 'e1' });
    await queue.drain();
    expect(logger.lines).toContainEqual({
      level: 'info',
      obj: { jobName: 'envelope.remind', jobId: id, attempt: 1, step: 'sent' },
      msg: 'reminder sent',
    });
  });

  it('runs at most `concurrency` handlers at once', async () => {
    let active = 0;
    let maxActive = 0;
    const { queue } = queueWith(
      {
        'email.send': async () => {
          active += 1;
          maxActive = Math.max(maxActive, active);
          await nextMacrotask();
          active -= 1;
        },
      },
      2,
    );
    for (let i = 0; i < 6; i += 1) await queue.enqueue('email.send', { to: `u${i}@example.org` });
    await queue.drain();
    expect(maxActive).toBe(2);
  });

  it('holds a delayed job back while jobs enqueued after it run', async () => {
    const order: string[] = [];
    const { queue } = queueWith({ 'email.send': async (payload) => void order.push(payload.to) });
    await queue.enqueue('email.send', { to: 'later@example.org' }, { delayMs: 30 });
    await queue.enqueue('email.send', { to: 'now@example.org' });
    await queue.drain();
    expect(order).toEqual(['now@example.org', 'later@example.org']);
  });
});

describe('in-process queue: validation at enqueue', () => {
  it('throws JobPayloadError naming the invalid field, and runs nothing', async () => {
    const handler = jest.fn(async () => undefined);
    const { queue } = queueWith({ 'email.send': handler });
    const enqueue = queue.enqueue('email.send', { to: 'not an address' });
    await expect(enqueue).rejects.toThrow(JobPayloadError);
    await expect(enqueue).rejects.toThrow(/^Invalid payload for job "email.send": to: /);
    await queue.drain();
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses a payload that would not survive the trip through JSON to a worker', async () => {
    const withDate = defineJob({ name: 'dated', schema: z.object({ at: z.date() }) });
    const queue = createInProcessQueue({
      registry: createJobRegistry([withDate]),
      handlers: { dated: async () => undefined },
      logger: recordingLogger(),
    });
    await expect(queue.enqueue('dated', { at: new Date() })).rejects.toThrow(/Invalid payload for job "dated": at: /);
  });

  it('throws UnknownJobError for a name outside the registry', async () => {
    const { queue } = queueWith({});
    const enqueueAny = queue.enqueue as (name: string, payload: unknown) => Promise<unknown>;
    await expect(enqueueAny('sms.send', {})).rejects.toThrow(UnknownJobError);
  });

  it.each([
    ['an integer-looking id', '42', /must not be an integer/],
    ['an id with a colon', 'envelope:42', /must not contain ':'/],
  ])('refuses %s, as BullMQ would', async (_label, jobId, message) => {
    const { queue } = queueWith({});
    await expect(queue.enqueue('email.send', { to: 'ana@example.org' }, { jobId })).rejects.toThrow(message);
  });

  it('refuses to start without a handler for every job', () => {
    const handlers = { 'email.send': async () => undefined } as unknown as JobHandlers<Registry>;
    expect(() => createInProcessQueue({ registry, handlers, logger: recordingLogger() })).toThrow(
      'no handler for "envelope.remind", "report.build"',
    );
  });
});

describe('in-process queue: retries', () => {
  it('retries a failing handler up to `attempts` times, then gives up and logs it', async () => {
    const attempts: number[] = [];
    const { queue, logger } = queueWith({
      'email.send': async (_payload, ctx) => {
        attempts.push(ctx.attempt);
        throw new Error('SMTP unavailable');
      },
    });
    await queue.enqueue('email.send', { to: 'ana@example.org' });
    await queue.drain();
    expect(attempts).toEqual([1, 2, 3]);
    expect(logger.lines.filter((line) => line.msg === 'job failed; will retry')).toHaveLength(2);
    expect(logger.lines.filter((line) => line.level === 'error')).toEqual([
      expect.objectContaining({ msg: 'job failed; giving up', obj: expect.objectContaining({ jobName: 'email.send', attempt: 3 }) }),
    ]);
  });

  it('keeps the job id across attempts and stops retrying once an attempt succeeds', async () => {
    const ids: string[] = [];
    const { queue } = queueWith({
      'email.send': async (_payload, ctx) => {
        ids.push(ctx.jobId);
        if (ctx.attempt < 2) throw new Error('transient');
        return 'sent';
      },
    });
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 5000 })).resolves.toBe('sent');
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });

  it('runs a deferred job again after its delay without using an attempt, and lets another job run meanwhile', async () => {
    const runs: string[] = [];
    const { queue, logger } = queueWith(
      {
        // attempts: 1, so a deferral that counted as an attempt would give the job up.
        'envelope.remind': async (_payload, ctx) => {
          runs.push(`remind#${ctx.attempt}`);
          if (runs.filter((r) => r.startsWith('remind')).length < 3) throw new JobDeferredError(1, 'account busy');
          return 'reminded';
        },
        'email.send': async () => void runs.push('email'),
      },
      1,
    );
    const reminded = queue.enqueueAndWait('envelope.remind', { envelopeId: 'e1' }, { timeoutMs: 5000 });
    await queue.enqueue('email.send', { to: 'ana@example.org' });
    await expect(reminded).resolves.toBe('reminded');
    // With one slot, the email ran between the deferred runs instead of waiting behind them.
    expect(runs.indexOf('email')).toBeLessThan(runs.lastIndexOf('remind#1'));
    expect(runs.filter((r) => r.startsWith('remind'))).toEqual(['remind#1', 'remind#1', 'remind#1']);
    expect(logger.lines.filter((line) => line.level !== 'info')).toEqual([]);
  });

  it('spaces retries like BullMQ: a fixed delay, or doubling from the base delay', () => {
    expect([1, 2, 3].map((n) => retryDelayMs({ type: 'fixed', delayMs: 500 }, n))).toEqual([500, 500, 500]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs({ type: 'exponential', delayMs: 500 }, n))).toEqual([500, 1000, 2000, 4000]);
  });

  it('fails an attempt that outlives the timeout and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const { queue } = queueWith({
      'report.build': (_payload, ctx) => {
        signal = ctx.signal;
        return new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
      },
    });
    const wait = queue.enqueueAndWait('report.build', { id: 'r1' }, { timeoutMs: 5000 });
    await expect(wait).rejects.toThrow(JobFailedError);
    await expect(wait).rejects.toThrow('Handler of job "report.build" did not finish within 20 ms');
    expect(signal?.aborted).toBe(true);
  });
});

describe('in-process queue: enqueueAndWait', () => {
  it("resolves with the handler's result", async () => {
    const { queue } = queueWith({ 'email.send': async (payload) => ({ sentTo: payload.to }) });
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 5000 })).resolves.toEqual({
      sentTo: 'ana@example.org',
    });
  });

  it('rejects with JobFailedError carrying the last error once the job is given up', async () => {
    const { queue } = queueWith({
      'email.send': async () => {
        throw new Error('mailbox full');
      },
    });
    const wait = queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 5000 });
    await expect(wait).rejects.toThrow(JobFailedError);
    await expect(wait).rejects.toThrow(/failed: mailbox full$/);
  });

  it('rejects with JobWaitTimeoutError when the job outlasts the wait, and the job still completes', async () => {
    const release = deferred();
    const done = jest.fn();
    const { queue } = queueWith({
      'email.send': async () => {
        await release.promise;
        done();
      },
    });
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 10 })).rejects.toThrow(
      JobWaitTimeoutError,
    );
    release.resolve();
    await queue.drain();
    expect(done).toHaveBeenCalledTimes(1);
  });
});

describe("in-process queue: enqueueAndWait until the first attempt, with an in-memory value", () => {
  it('rejects with JobRetryingError when the first attempt fails, and the job goes on to succeed', async () => {
    const attempts: number[] = [];
    const { queue } = queueWith({
      'email.send': async (_payload, ctx) => {
        attempts.push(ctx.attempt);
        if (ctx.attempt === 1) throw new Error('SMTP unavailable');
        return 'sent';
      },
    });
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 5000, until: 'first-attempt' })).rejects.toThrow(JobRetryingError);
    await queue.drain();
    expect(attempts).toEqual([1, 2]);
  });

  it('answers the result of a first attempt that succeeds', async () => {
    const { queue } = queueWith({ 'email.send': async () => 'sent' });
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 5000, until: 'first-attempt' })).resolves.toBe('sent');
  });

  it("gives the handler the enqueuer's value while it waits, and nothing to a retry after the wait ended", async () => {
    const seen: (object | undefined)[] = [];
    const { queue } = queueWith({
      'email.send': async (_payload, ctx) => {
        seen.push(ctx.local);
        if (ctx.attempt === 1) throw new Error('SMTP unavailable');
        return 'sent';
      },
    });
    const local = { image: Buffer.from('png') };
    await expect(queue.enqueueAndWait('email.send', { to: 'ana@example.org' }, { timeoutMs: 5000, until: 'first-attempt', local })).rejects.toThrow(JobRetryingError);
    await queue.drain();
    expect(seen).toEqual([local, undefined]);
  });
});

describe('in-process queue: dedupe', () => {
  it('runs a job once when its dedupe id is enqueued again while it is pending', async () => {
    const handler = jest.fn(async () => undefined);
    const { queue } = queueWith({ 'envelope.remind': handler });
    const first = await queue.enqueue('envelope.remind', { envelopeId: 'e1' });
    const second = await queue.enqueue('envelope.remind', { envelopeId: 'e1' });
    const other = await queue.enqueue('envelope.remind', { envelopeId: 'e2' });
    await queue.drain();
    expect(first).toEqual({ id: 'remind-e1' });
    expect(second).toEqual(first);
    expect(other).toEqual({ id: 'remind-e2' });
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('dedupes on an explicit jobId too', async () => {
    const handler = jest.fn(async () => undefined);
    const { queue } = queueWith({ 'email.send': handler });
    await queue.enqueue('email.send', { to: 'ana@example.org' }, { jobId: 'welcome-ana' });
    await queue.enqueue('email.send', { to: 'ana@example.org' }, { jobId: 'welcome-ana' });
    await queue.drain();
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('runs the same dedupe id again once the first job has finished', async () => {
    const handler = jest.fn(async () => undefined);
    const { queue } = queueWith({ 'envelope.remind': handler });
    await queue.enqueue('envelope.remind', { envelopeId: 'e1' });
    await queue.drain();
    await queue.enqueue('envelope.remind', { envelopeId: 'e1' });
    await queue.drain();
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('lets a waiter of a deduplicated job receive the result of the job already pending', async () => {
    const release = deferred();
    const { queue } = queueWith({
      'envelope.remind': async (payload) => {
        await release.promise;
        return `reminded ${payload.envelopeId}`;
      },
    });
    await queue.enqueue('envelope.remind', { envelopeId: 'e1' });
    const wait = queue.enqueueAndWait('envelope.remind', { envelopeId: 'e1' }, { timeoutMs: 5000 });
    release.resolve();
    await expect(wait).resolves.toBe('reminded e1');
  });
});

describe('in-process queue: drain and close', () => {
  it('drain waits for a running job to finish', async () => {
    const started = deferred();
    const release = deferred();
    const order: string[] = [];
    const { queue } = queueWith({
      'email.send': async () => {
        started.resolve();
        await release.promise;
        order.push('job finished');
      },
    });
    await queue.enqueue('email.send', { to: 'ana@example.org' });
    await started.promise;
    const drained = queue.drain().then(() => order.push('drained'));
    await nextMacrotask();
    release.resolve();
    await drained;
    expect(order).toEqual(['job finished', 'drained']);
  });

  it('drain waits for jobs that running handlers enqueue', async () => {
    const order: string[] = [];
    const { queue } = queueWith({
      'email.send': async () => {
        order.push('email');
        await queue.enqueue('envelope.remind', { envelopeId: 'e1' });
      },
      'envelope.remind': async () => {
        order.push('reminder');
      },
    });
    await queue.enqueue('email.send', { to: 'ana@example.org' });
    await queue.drain();
    expect(order).toEqual(['email', 'reminder']);
  });

  it('drain resolves at once when nothing is pending', async () => {
    const { queue } = queueWith({});
    await expect(queue.drain()).resolves.toBeUndefined();
  });

  it('close lets accepted jobs finish and refuses new ones', async () => {
    const release = deferred();
    const done = jest.fn();
    const { queue } = queueWith({
      'email.send': async () => {
        await release.promise;
        done();
      },
    });
    await queue.enqueue('email.send', { to: 'ana@example.org' });
    const closed = queue.close();
    await expect(queue.enqueue('email.send', { to: 'ben@example.org' })).rejects.toThrow('Job queue is closed');
    release.resolve();
    await closed;
    expect(done).toHaveBeenCalledTimes(1);
  });
});
