import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { eventually } from '../testing/helpers';
import {
  createBullMqQueue,
  createInProcessQueue,
  createJobRegistry,
  defineJob,
  JobPayloadError,
  nextRunAfter,
  startBullMqWorker,
  type JobContext,
  type JobQueue,
} from './index';
import { nextMacrotask, recordingLogger, REDIS_URL } from './__tests__/helpers';

// Every key this file creates lives under its own prefix, removed in afterAll.
const PREFIX = `sk-test-schedules-${randomUUID().slice(0, 8)}`;

const tick = defineJob({ name: 'clock.tick', schema: z.object({ label: z.string() }), attempts: 1 });
const sweep = defineJob({ name: 'files.sweep', schema: z.object({}), attempts: 1 });
const registry = createJobRegistry([tick, sweep]);
type Registry = typeof registry;

interface Run {
  label: string;
  jobId: string;
  worker: string;
}

const redis = new Redis(REDIS_URL);
const open: { close(): Promise<void> }[] = [];
let queueCount = 0;
const queueNames: string[] = [];

afterEach(async () => {
  for (const closable of open.splice(0).reverse()) await closable.close();
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

function recorder(worker: string, runs: Run[]) {
  return {
    'clock.tick': async (payload: { label: string }, ctx: JobContext) => void runs.push({ label: payload.label, jobId: ctx.jobId, worker }),
    'files.sweep': async () => undefined,
  };
}

describe('repeat rules', () => {
  it('reads a cron pattern in its time zone: 06:00 on the 1st in Madrid is 05:00 UTC in winter and 04:00 UTC in summer', () => {
    const monthly = { pattern: '0 6 1 * *', tz: 'Europe/Madrid' };
    expect(nextRunAfter(monthly, new Date('2026-01-15T12:00:00Z')).toISOString()).toBe('2026-02-01T05:00:00.000Z');
    expect(nextRunAfter(monthly, new Date('2026-06-15T12:00:00Z')).toISOString()).toBe('2026-07-01T04:00:00.000Z');
    expect(nextRunAfter({ everyMs: 500 }, new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-01-01T00:00:00.500Z');
  });

  it.each([
    [{ pattern: 'every day' }, /is not a cron pattern/],
    [{ pattern: '61 * * * *' }, /is not a cron pattern/],
    [{ pattern: '0 3 * * *', tz: 'Mars/Olympus' }, /is not an IANA time zone/],
    [{ everyMs: 0 }, /everyMs must be a positive whole number/],
  ])('refuses %j when the schedules are set, on both queue kinds', async (repeat, message) => {
    const inProcess = createInProcessQueue({ registry, handlers: recorder('a', []), logger: recordingLogger() });
    open.push(inProcess);
    await expect(inProcess.setSchedules([{ name: 'files.sweep', repeat, payload: {} }])).rejects.toThrow(message);
    const bull = bullQueue();
    await expect(bull.queue.setSchedules([{ name: 'files.sweep', repeat, payload: {} }])).rejects.toThrow(message);
    expect(await bull.raw.getJobSchedulers()).toEqual([]);
  });

  it('refuses a payload its job would refuse, and a job scheduled twice', async () => {
    const queue = createInProcessQueue({ registry, handlers: recorder('a', []), logger: recordingLogger() });
    open.push(queue);
    const setAny = queue.setSchedules as (s: unknown[]) => Promise<void>;
    await expect(setAny([{ name: 'clock.tick', repeat: { everyMs: 10 }, payload: { label: 7 } }])).rejects.toThrow(JobPayloadError);
    await expect(
      queue.setSchedules([
        { name: 'files.sweep', repeat: { everyMs: 10 }, payload: {} },
        { name: 'files.sweep', repeat: { everyMs: 20 }, payload: {} },
      ]),
    ).rejects.toThrow(/"files.sweep" is scheduled twice/);
  });
});

describe('repeatable jobs, in-process queue (fake clock and timers)', () => {
  beforeEach(() => {
    // Timers and Date are faked; setImmediate stays real, as the queue starts handlers on it.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'], now: new Date('2026-01-01T05:00:30Z') });
  });
  afterEach(() => jest.useRealTimers());

  const settle = async () => {
    for (let i = 0; i < 5; i += 1) await nextMacrotask();
  };

  it('runs the job on its interval with its payload until the queue closes, and never after', async () => {
    const runs: Run[] = [];
    const queue = createInProcessQueue({ registry, handlers: recorder('a', runs), logger: recordingLogger() });
    await queue.setSchedules([{ name: 'clock.tick', repeat: { everyMs: 1000 }, payload: { label: 'every second' } }]);
    await jest.advanceTimersByTimeAsync(999);
    await settle();
    expect(runs).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    await settle();
    expect(runs.map((r) => r.label)).toEqual(['every second']);
    await jest.advanceTimersByTimeAsync(2000);
    await settle();
    expect(runs).toHaveLength(3);
    await queue.close();
    await jest.advanceTimersByTimeAsync(10_000);
    await settle();
    expect(runs).toHaveLength(3);
  });

  it('reaches a monthly run more than 24.8 days away (beyond one timer) at its time in Madrid, and new schedules replace the old', async () => {
    const runs: Run[] = [];
    const queue = createInProcessQueue({ registry, handlers: recorder('a', runs), logger: recordingLogger() });
    open.push(queue);
    // Just after 06:00 on 1 January in Madrid: the next run is 1 February, 05:00 UTC, 31 days on.
    await queue.setSchedules([{ name: 'clock.tick', repeat: { pattern: '0 6 1 * *', tz: 'Europe/Madrid' }, payload: { label: 'monthly' } }]);
    await jest.advanceTimersByTimeAsync(Date.parse('2026-02-01T04:59:59Z') - Date.now());
    await settle();
    expect(runs).toEqual([]);
    await jest.advanceTimersByTimeAsync(1000);
    await settle();
    expect(runs.map((r) => r.label)).toEqual(['monthly']);

    await queue.setSchedules([{ name: 'files.sweep', repeat: { everyMs: 60_000 }, payload: {} }]);
    await jest.advanceTimersByTimeAsync(Date.parse('2026-03-01T06:00:00Z') - Date.now());
    await settle();
    expect(runs).toHaveLength(1);
  });

  it('skips a run while the previous one is still running', async () => {
    let running = 0;
    let overlapped = false;
    let started = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const queue = createInProcessQueue({
      registry,
      handlers: {
        'clock.tick': async () => {
          running += 1;
          started += 1;
          if (running > 1) overlapped = true;
          if (started === 1) await held;
          running -= 1;
        },
        'files.sweep': async () => undefined,
      },
      logger: recordingLogger(),
    });
    open.push(queue);
    await queue.setSchedules([{ name: 'clock.tick', repeat: { everyMs: 1000 }, payload: { label: 'slow' } }]);
    await jest.advanceTimersByTimeAsync(1000);
    await settle();
    expect(started).toBe(1);
    // Five more intervals while the first run holds: they queue nothing beside it.
    await jest.advanceTimersByTimeAsync(5000);
    await settle();
    expect(started).toBe(1);
    expect(await queue.depth()).toMatchObject({ active: 1, waiting: 0 });
    release();
    await settle();
    await jest.advanceTimersByTimeAsync(1000);
    await settle();
    expect(started).toBe(2);
    expect(overlapped).toBe(false);
    await queue.setSchedules([]);
  });
});

function bullQueue(queueName = `sched-${(queueCount += 1)}`) {
  if (!queueNames.includes(queueName)) queueNames.push(queueName);
  const logger = recordingLogger();
  const queue: JobQueue<Registry> = createBullMqQueue({ connection: REDIS_URL, queueName, prefix: PREFIX, registry, logger });
  const raw = new Queue(queueName, { connection: { url: REDIS_URL }, prefix: PREFIX });
  open.push(queue, raw);
  return { queue, raw, queueName };
}

describe('repeatable jobs, BullMQ', () => {
  it('two instances declaring the same schedule share one scheduler: each run happens once, on one worker', async () => {
    const runs: Run[] = [];
    const a = bullQueue();
    const b = bullQueue(a.queueName);
    const schedule = [{ name: 'clock.tick' as const, repeat: { everyMs: 150 }, payload: { label: 'shared' } }];
    // Both instances start: each upserts the schedule and runs a worker.
    await a.queue.setSchedules(schedule);
    await b.queue.setSchedules(schedule);
    for (const [worker, name] of [['a', a.queueName], ['b', b.queueName]] as const) {
      open.unshift(startBullMqWorker({ connection: REDIS_URL, queueName: name, prefix: PREFIX, registry, handlers: recorder(worker, runs), logger: recordingLogger() }));
    }
    const schedulers = await a.raw.getJobSchedulers();
    expect(schedulers).toHaveLength(1);
    expect(schedulers[0]).toMatchObject({ key: 'clock.tick', every: 150, template: { data: { label: 'shared' } } });

    await eventually(async () => (runs.length >= 4 ? true : undefined), 100, 50);
    const ids = runs.map((r) => r.jobId);
    expect(new Set(ids).size).toBe(ids.length);
    // BullMQ's scheduler ids end with the run's due time: one run per slot, slots an interval apart.
    const slots = ids.map((id) => Number(id.split(':').pop())).sort((x, y) => x - y);
    for (let i = 1; i < slots.length; i += 1) expect(slots[i]! - slots[i - 1]!).toBeGreaterThanOrEqual(150);
    expect(runs.every((r) => r.label === 'shared')).toBe(true);
  });

  it('stores a cron schedule with its zone and next run, updates it in place, and removes schedules no longer declared', async () => {
    const { queue, raw } = bullQueue();
    const before = new Date();
    await queue.setSchedules([
      { name: 'files.sweep', repeat: { pattern: '30 3 * * *', tz: 'Europe/Madrid' }, payload: {} },
      { name: 'clock.tick', repeat: { pattern: '0 6 1 * *', tz: 'Europe/Madrid' }, payload: { label: 'monthly' } },
    ]);
    const stored = await raw.getJobScheduler('files.sweep');
    expect(stored).toMatchObject({ pattern: '30 3 * * *', tz: 'Europe/Madrid', next: nextRunAfter({ pattern: '30 3 * * *', tz: 'Europe/Madrid' }, before).getTime() });
    expect((await raw.getDelayed()).map((j) => j.name).sort()).toEqual(['clock.tick', 'files.sweep']);

    // A later start with a changed pattern, and without the monthly job.
    await queue.setSchedules([{ name: 'files.sweep', repeat: { pattern: '0 4 * * *', tz: 'Europe/Madrid' }, payload: {} }]);
    const schedulers = await raw.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.pattern])).toEqual([['files.sweep', '0 4 * * *']]);
    expect((await raw.getDelayed()).map((j) => j.name)).toEqual(['files.sweep']);
  });

  it('runs a cron pattern with seconds through a worker', async () => {
    const runs: Run[] = [];
    const { queue, queueName } = bullQueue();
    open.unshift(startBullMqWorker({ connection: REDIS_URL, queueName, prefix: PREFIX, registry, handlers: recorder('a', runs), logger: recordingLogger() }));
    await queue.setSchedules([{ name: 'clock.tick', repeat: { pattern: '* * * * * *' }, payload: { label: 'each second' } }]);
    await eventually(async () => (runs.length >= 2 ? true : undefined), 80, 50);
    expect(runs.slice(0, 2).map((r) => r.label)).toEqual(['each second', 'each second']);
  });
});
