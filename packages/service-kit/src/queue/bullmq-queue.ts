import { randomUUID } from 'node:crypto';
import type { JobsOptions, Queue, QueueEvents } from 'bullmq';
import { bullmq } from './bullmq-module';
import type { Redis } from 'ioredis';
import type { AnyJobDefinition } from './define-job';
import { waitForJob } from './bullmq-wait';
import { JobFailedError, JobRetryingError, JobWaitTimeoutError } from './errors';
import {
  assertEnqueueOptions,
  assertWaitOptions,
  type EnqueueAndWaitOptions,
  type EnqueueOptions,
  type JobQueue,
} from './job-queue';
import type { JobLogger } from './logger';
import { localValues } from './local-values';
import { prepareJob } from './payload';
import { blockingClient, closeClient, commandClient, type OwnedClient, type RedisConnection } from './redis-connection';
import type { JobRegistry } from './registry';
import { assertSchedules, type JobRepeat } from './repeat';

export interface BullMqQueueOptions<R extends JobRegistry> {
  connection: RedisConnection;
  /** Shared by the API (producer) and its workers; must not contain ':'. */
  queueName: string;
  /** Redis key prefix, BullMQ's default being `bull`. */
  prefix?: string;
  registry: R;
  /** Receives Redis connection errors. Default: console. */
  logger?: JobLogger;
}

/**
 * Failed jobs are kept two weeks (up to 10 000) so that they can be inspected and
 * retried by hand; they are the ones someone will ask about.
 */
const KEEP_FAILED = { age: 14 * 24 * 60 * 60, count: 10_000 };

/** The options every job of `definition` is added with: its policy, written once, in the definition. */
function jobOptions(definition: AnyJobDefinition, jobId: string | undefined, delayMs: number | undefined): JobsOptions {
  return {
    attempts: definition.attempts,
    backoff: { type: definition.backoff.type, delay: definition.backoff.delayMs },
    removeOnComplete: definition.removeOnComplete,
    removeOnFail: KEEP_FAILED,
    ...(jobId === undefined ? {} : { jobId }),
    ...(delayMs ? { delay: delayMs } : {}),
  };
}

/** BullMQ's repeat options for ours. */
function repeatOptions(repeat: JobRepeat): { pattern: string; tz?: string } | { every: number } {
  return 'everyMs' in repeat ? { every: repeat.everyMs } : { pattern: repeat.pattern, ...(repeat.tz === undefined ? {} : { tz: repeat.tz }) };
}

/**
 * The producer side in production: adds jobs to a BullMQ queue in Redis, to be run
 * by `startBullMqWorker` in separate processes.
 */
export function createBullMqQueue<R extends JobRegistry>(options: BullMqQueueOptions<R>): JobQueue<R> {
  const { registry, queueName, prefix } = options;
  const logger = options.logger ?? console;
  let closing: Promise<void> | undefined;
  /**
   * The BullMQ queue and its Redis connection, made on first use: a process that never
   * queues a job (most CLI commands) neither loads BullMQ nor connects for it.
   */
  let opened: { redis: OwnedClient; queue: Queue } | undefined;
  function open(): { redis: OwnedClient; queue: Queue } {
    if (closing) throw new Error('Job queue is closed');
    if (!opened) {
      const redis = commandClient(options.connection);
      const queue = new (bullmq().Queue)(queueName, { connection: redis.client, prefix });
      // An EventEmitter's 'error' without a listener throws, which would take the API
      // process down with Redis.
      queue.on('error', (err) => logger.error({ err, queueName }, 'job queue connection error'));
      opened = { redis, queue };
    }
    return opened;
  }

  let events: Promise<QueueEvents> | undefined;
  let eventsClient: Redis | undefined;
  /** Ends the waits of `enqueueAndWait` when the queue closes. */
  const closingSignal = new AbortController();

  /**
   * One QueueEvents per queue, created on the first enqueueAndWait. A fresh
   * QueueEvents reads the stream from "now" ('$') once its first read reaches Redis,
   * and a job finishing before that would never be reported; so it is started from
   * the stream's last entry as it was before the job was added.
   */
  function queueEvents(): Promise<QueueEvents> {
    events ??= (async () => {
      const { redis, queue } = open();
      const last = await redis.client.xrevrange(queue.toKey('events'), '+', '-', 'COUNT', 1);
      eventsClient = blockingClient(options.connection);
      const created = new (bullmq().QueueEvents)(queueName, { connection: eventsClient, prefix, lastEventId: last[0]?.[0] ?? '0-0' });
      created.on('error', (err) => logger.error({ err, queueName }, 'job queue events connection error'));
      return created;
    })();
    // A failed start (Redis unreachable) is not cached: the next call tries again.
    events.catch(() => {
      events = undefined;
    });
    return events;
  }

  async function add(name: string, input: unknown, opts: EnqueueOptions | undefined) {
    if (closing) throw new Error('Job queue is closed');
    assertEnqueueOptions(opts);
    const definition = registry.get(name);
    const prepared = prepareJob(definition, input, opts?.jobId);
    const job = await open().queue.add(name, prepared.data, jobOptions(definition, prepared.jobId, opts?.delayMs));
    if (job.id === undefined) throw new Error(`BullMQ returned no id for job "${name}"`);
    return job;
  }

  return {
    async setSchedules(schedules) {
      if (closing) throw new Error('Job queue is closed');
      assertSchedules(registry, schedules);
      const { queue } = open();
      const wanted = new Set<string>();
      for (const schedule of schedules) {
        const name = schedule.name as string;
        const definition = registry.get(name);
        const { data } = prepareJob(definition, schedule.payload);
        const opts = jobOptions(definition, undefined, undefined);
        // The scheduler's id is the job's name: every worker upserts the same one.
        await queue.upsertJobScheduler(name, repeatOptions(schedule.repeat), { name, data, opts });
        wanted.add(name);
      }
      for (const existing of await queue.getJobSchedulers()) {
        const id = existing.id ?? existing.key;
        if (!wanted.has(id)) await queue.removeJobScheduler(id);
      }
    },

    async depth() {
      const counts = await open().queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed');
      return { waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0), delayed: counts.delayed ?? 0, active: counts.active ?? 0, failed: counts.failed ?? 0 };
    },

    async enqueue(name, payload, opts) {
      const job = await add(name, payload, opts);
      return { id: job.id as string };
    },

    async enqueueAndWait(name, payload, opts: EnqueueAndWaitOptions) {
      assertWaitOptions(opts);
      const listener = await queueEvents();
      // A local value is offered under the job's id before the job exists, so a worker of
      // this process that takes it at once finds it.
      const { local } = opts;
      const jobId = local ? (prepareJob(registry.get(name), payload, opts.jobId).jobId ?? randomUUID()) : opts.jobId;
      const offered = local !== undefined && localValues.offer(prefix, queueName, jobId!, local);
      try {
        const job = await add(name, payload, { ...opts, jobId });
        const id = job.id as string;
        const outcome = await waitForJob(listener, open().queue, job, opts.timeoutMs, opts.until === 'first-attempt', closingSignal.signal);
        if (outcome === 'timeout') throw new JobWaitTimeoutError(name, id, opts.timeoutMs);
        if (outcome === 'closed') throw new Error(`Job queue closed while waiting for job "${name}" (id ${id})`);
        if (outcome.ok) return outcome.value;
        if (outcome.retrying) throw new JobRetryingError(name, id, outcome.reason);
        throw new JobFailedError(name, id, outcome.reason);
      } finally {
        if (offered) localValues.withdraw(prefix, queueName, jobId!, local);
      }
    },

    close() {
      closingSignal.abort();
      closing ??= (async () => {
        const listener = await events?.catch(() => undefined);
        if (listener) await listener.close();
        if (eventsClient) await closeClient(eventsClient);
        if (opened) await opened.queue.close();
        if (opened?.redis.owned) await closeClient(opened.redis.client);
      })();
      return closing;
    },
  };
}
