import type { Logger } from 'pino';
import {
  createBullMqQueue,
  createInProcessQueue,
  startBullMqWorker,
  type JobHandlers,
  type JobQueue,
  type JobRegistry,
  type JobWorker,
} from './queue';
import { withFirstAttemptHere } from './queue/first-attempt-here';

export interface JobsRuntime<R extends JobRegistry> {
  queue: JobQueue<R>;
  mode: 'bullmq' | 'in-process';
  /** Present when this process runs handlers (worker role, or embedded). */
  worker?: JobWorker;
  /** Stops taking jobs, finishes running ones, closes connections. */
  close(): Promise<void>;
}

export interface JobsRuntimeOptions<R extends JobRegistry> {
  redisUrl?: string;
  queueName: string;
  /** Redis key prefix of the queue (BullMQ's default `bull`); lets tests and tenants of one Redis stay apart. */
  prefix?: string;
  registry: R;
  /** Built lazily: a producer-only API process never needs the handlers' dependencies. */
  handlers: () => JobHandlers<R>;
  /** Whether this process executes jobs (worker and all-in-one roles). */
  runWorker: boolean;
  concurrency: number;
  /** BullMQ: how long a killed worker's job stays claimed before another worker runs it (`startBullMqWorker`'s `stalledAfterMs`). */
  stalledAfterMs?: number;
  logger: Logger;
}

/**
 * With REDIS_URL: BullMQ producer, plus a BullMQ worker when this process runs jobs.
 * Without: the same handlers run in-process after enqueue returns.
 */
export function startJobs<R extends JobRegistry>(options: JobsRuntimeOptions<R>): JobsRuntime<R> {
  const logger = options.logger.child({ component: 'jobs' });
  if (!options.redisUrl) {
    const queue = createInProcessQueue({ registry: options.registry, handlers: options.handlers(), logger, concurrency: options.concurrency });
    return { queue, mode: 'in-process', close: () => queue.close() };
  }
  const bullmq = createBullMqQueue({ connection: options.redisUrl, queueName: options.queueName, prefix: options.prefix, registry: options.registry, logger });
  // A process that runs the jobs may run a waited job's first attempt itself (`firstAttemptHere`).
  const handlers = options.runWorker ? options.handlers() : undefined;
  const queue = handlers ? withFirstAttemptHere(bullmq, { registry: options.registry, handlers, logger }) : bullmq;
  const worker = handlers
    ? startBullMqWorker({
        connection: options.redisUrl,
        queueName: options.queueName,
        prefix: options.prefix,
        registry: options.registry,
        handlers,
        concurrency: options.concurrency,
        stalledAfterMs: options.stalledAfterMs,
        logger,
      })
    : undefined;
  return {
    queue,
    mode: 'bullmq',
    worker,
    async close() {
      await worker?.close();
      await queue.close();
    },
  };
}
