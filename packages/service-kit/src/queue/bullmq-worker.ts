import type { Job } from 'bullmq';
import { bullmq } from './bullmq-module';
import { JobDeferredError } from './errors';
import { assertHandlers, type JobHandler, type JobHandlers } from './handlers';
import { assertConcurrency, DEFAULT_CONCURRENCY } from './job-queue';
import type { JobLogger } from './logger';
import { parsePayload } from './payload';
import { blockingClient, closeClient, type RedisConnection } from './redis-connection';
import type { JobRegistry } from './registry';
import { localValues } from './local-values';
import { runHandler } from './run-handler';

export interface BullMqWorkerOptions<R extends JobRegistry> {
  connection: RedisConnection;
  queueName: string;
  prefix?: string;
  registry: R;
  handlers: JobHandlers<R>;
  /** Jobs run at once by this process. Default 5. */
  concurrency?: number;
  /**
   * How long a job stays claimed by a worker that stopped renewing its lock (a killed
   * process) before another worker runs it again: BullMQ's `lockDuration` and
   * `stalledInterval` (the lock is renewed every half of it). Default 30 000 ms.
   */
  stalledAfterMs?: number;
  logger: JobLogger;
}

export interface JobWorker {
  /**
   * Stops taking jobs, lets the active ones finish, then disconnects. Call it on
   * SIGTERM; a job cut off by a hard kill is picked up again by another worker once
   * its lock expires (BullMQ's stalled-job check), so it must be safe to re-run.
   */
  close(): Promise<void>;
}

/**
 * Runs the registry's jobs from a BullMQ queue; the entry point of a worker process.
 * Throws at once, before touching Redis, when handlers and registry disagree.
 */
export function startBullMqWorker<R extends JobRegistry>(options: BullMqWorkerOptions<R>): JobWorker {
  const { registry, queueName, logger } = options;
  const { DelayedError, UnrecoverableError, Worker } = bullmq();
  assertHandlers(registry, options.handlers);
  const handlers = options.handlers as unknown as Record<string, JobHandler<unknown>>;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  assertConcurrency(concurrency);

  async function processJob(job: Job, token?: string): Promise<unknown> {
    const jobId = String(job.id);
    const definition = registry.find(job.name);
    const handler = handlers[job.name];
    if (!definition || !handler) {
      // A newer producer may already enqueue a job this worker's code does not know
      // yet; crashing would only make every worker restart on it forever.
      logger.warn({ queueName, jobName: job.name, jobId }, 'skipping job with a name this worker does not define');
      return undefined;
    }
    let payload: unknown;
    try {
      payload = parsePayload(definition, job.data);
    } catch (err) {
      // Retrying cannot fix the data; fail it now and keep it for inspection.
      throw new UnrecoverableError((err as Error).message);
    }
    try {
      return await runHandler({ definition, handler, payload, jobId, attempt: job.attemptsMade + 1, logger, local: localValues.get(options.prefix, queueName, jobId) });
    } catch (err) {
      if (!(err instanceof JobDeferredError) || token === undefined) throw err;
      // BullMQ's manual delay: back to the delayed set without counting an attempt (skipAttempt).
      await job.moveToDelayed(Date.now() + err.delayMs, token);
      throw new DelayedError();
    }
  }

  const client = blockingClient(options.connection);
  const stalled = options.stalledAfterMs === undefined ? {} : { lockDuration: options.stalledAfterMs, stalledInterval: options.stalledAfterMs };
  const worker = new Worker(queueName, processJob, { connection: client, prefix: options.prefix, concurrency, ...stalled });

  // Without an 'error' listener an EventEmitter throws, and a Redis hiccup would
  // crash the worker process.
  worker.on('error', (err) => logger.error({ err, queueName }, 'job worker error'));
  worker.on('failed', (job, err) => {
    if (!job) return;
    const log = { err, queueName, jobName: job.name, jobId: job.id, attempt: job.attemptsMade };
    const givenUp = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (givenUp) logger.error(log, 'job failed; giving up');
    else logger.warn(log, 'job failed; will retry');
  });

  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= (async () => {
        logger.info({ queueName }, 'closing job worker; waiting for active jobs');
        await worker.close();
        await closeClient(client);
      })();
      return closing;
    },
  };
}
