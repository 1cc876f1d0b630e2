import { randomUUID } from 'node:crypto';
import { JobDeferredError, JobPayloadError, JobRetryingError, JobWaitTimeoutError } from './errors';
import type { JobHandler, JobHandlers } from './handlers';
import { retryDelayMs } from './in-process-queue';
import { assertWaitOptions, type JobQueue } from './job-queue';
import type { JobLogger } from './logger';
import { parsePayload, prepareJob } from './payload';
import type { JobRegistry } from './registry';
import { runHandler } from './run-handler';

/**
 * For a process that runs this queue's jobs itself (worker or all-in-one role, with
 * BullMQ): `enqueueAndWait(..., { firstAttemptHere: true })` runs the job's first attempt
 * here, through the same handler and with the same timeout as a worker would, without the
 * queue's round trips (add, fetch, lock, finish, event), which cost a fast job more than
 * its work. When that attempt fails (or defers), the job is queued for its retries (after
 * the definition's first backoff) and the wait rejects with JobRetryingError, as a waited
 * job does. What it does not have, a crash in the middle of the attempt, is what a service
 * using it must recover (esign's recovery sweep re-queues a seal left `sealing`).
 * Every other call goes to `queue` unchanged.
 */
export function withFirstAttemptHere<R extends JobRegistry>(queue: JobQueue<R>, options: { registry: R; handlers: JobHandlers<R>; logger: JobLogger }): JobQueue<R> {
  const handlers = options.handlers as unknown as Record<string, JobHandler<unknown>>;
  return {
    enqueue: (name, payload, opts) => queue.enqueue(name, payload, opts),
    setSchedules: (schedules) => queue.setSchedules(schedules),
    depth: () => queue.depth(),
    close: () => queue.close(),
    async enqueueAndWait(name, payload, opts) {
      if (!opts.firstAttemptHere) return queue.enqueueAndWait(name, payload, opts);
      assertWaitOptions(opts);
      const definition = options.registry.get(name as string);
      const prepared = prepareJob(definition, payload, opts.jobId);
      const jobId = prepared.jobId ?? randomUUID();
      const attempt = (async () => {
        try {
          const parsed = parsePayload(definition, prepared.data);
          return { ok: true as const, value: await runHandler({ definition, handler: handlers[name as string]!, payload: parsed, jobId, attempt: 1, logger: options.logger, local: opts.local }) };
        } catch (err) {
          if (err instanceof JobPayloadError) throw err;
          // The queue takes the job over: its retries, or the deferral the handler asked for.
          const delayMs = err instanceof JobDeferredError ? err.delayMs : retryDelayMs(definition.backoff, 1);
          await queue.enqueue(name, payload, { jobId: opts.jobId, delayMs });
          return { ok: false as const, reason: (err as Error).message };
        }
      })();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), opts.timeoutMs);
      });
      // An attempt that outlasts the wait goes on; its failure still queues the retries.
      attempt.catch(() => undefined);
      const outcome = await Promise.race([attempt, timedOut]).finally(() => clearTimeout(timer));
      if (outcome === 'timeout') throw new JobWaitTimeoutError(name as string, jobId, opts.timeoutMs);
      if (outcome.ok) return outcome.value;
      throw new JobRetryingError(name as string, jobId, outcome.reason);
    },
  };
}
