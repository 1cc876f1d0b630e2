import { randomUUID } from 'node:crypto';
import { AsyncResource } from 'node:async_hooks';
import type { AnyJobDefinition, JobBackoff } from './define-job';
import { JobDeferredError, JobFailedError, JobPayloadError, JobRetryingError, JobWaitTimeoutError } from './errors';
import { assertHandlers, type JobHandler, type JobHandlers } from './handlers';
import {
  assertConcurrency,
  assertEnqueueOptions,
  assertWaitOptions,
  DEFAULT_CONCURRENCY,
  type EnqueueAndWaitOptions,
  type EnqueueOptions,
  type JobQueue,
} from './job-queue';
import type { JobLogger } from './logger';
import { parsePayload, prepareJob } from './payload';
import type { JobRegistry } from './registry';
import { assertSchedules, nextRunAfter, type JobSchedule } from './repeat';
import { runHandler } from './run-handler';

/** setTimeout's longest delay (about 24.8 days); a later run (a monthly one) is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface InProcessQueueOptions<R extends JobRegistry> {
  registry: R;
  handlers: JobHandlers<R>;
  logger: JobLogger;
  /** Jobs running at once. Default 5. */
  concurrency?: number;
}

export interface InProcessJobQueue<R extends JobRegistry = JobRegistry> extends JobQueue<R> {
  /**
   * Resolves once no job is queued, delayed, waiting for a retry or running. Jobs
   * enqueued meanwhile (by handlers, say) are waited for too.
   */
  drain(): Promise<void>;
  /** Stops the schedules, refuses new jobs, then drains. */
  close(): Promise<void>;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
/** How the first attempt ended: as the job did, or failed with a retry due. */
type FirstAttempt = Outcome | { ok: false; error: unknown; retrying: true };

interface Entry {
  id: string;
  definition: AnyJobDefinition;
  /** The JSON round-tripped payload, parsed again before every attempt as a worker would. */
  data: unknown;
  attemptsStarted: number;
  /** Never rejects, so that nobody awaiting it is not an unhandled rejection. */
  outcome: Promise<Outcome>;
  settle(outcome: Outcome): void;
  /** Settled when the first attempt ends (never rejects either). */
  firstAttempt: Promise<FirstAttempt>;
  settleFirst(outcome: FirstAttempt): void;
  /** The waiting enqueuer's in-memory value (`enqueueAndWait`'s `local`), while it waits. */
  local?: object;
}

/**
 * Embedded mode, for when there is no REDIS_URL: the service's own handlers run in
 * the API process with the definitions' retry policy. Jobs live in memory, so those
 * not finished when the process dies are lost; it suits development, tests and small
 * deployments, not work that must survive a crash.
 */
export function createInProcessQueue<R extends JobRegistry>(options: InProcessQueueOptions<R>): InProcessJobQueue<R> {
  const { registry, logger } = options;
  assertHandlers(registry, options.handlers);
  const handlers = options.handlers as unknown as Record<string, JobHandler<unknown>>;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  assertConcurrency(concurrency);

  // Jobs run in the async context of the queue's creation, not the enqueuer's: a
  // timer started during a request would otherwise carry that request's
  // AsyncLocalStorage (its transaction, its request-scoped logger) into the handler.
  const detached = new AsyncResource('InProcessJobQueue');
  const pending = new Map<string, Entry>();
  const ready: Entry[] = [];
  const timers = new Set<NodeJS.Timeout>();
  /** The timers of `setSchedules`: never keep the process alive, stopped by `close()`. */
  const scheduleTimers = new Map<string, NodeJS.Timeout>();
  let drainWaiters: (() => void)[] = [];
  let running = 0;
  let closed = false;

  function add(name: string, input: unknown, opts: EnqueueOptions | undefined): Entry {
    if (closed) throw new Error('Job queue is closed');
    assertEnqueueOptions(opts);
    const definition = registry.get(name);
    const prepared = prepareJob(definition, input, opts?.jobId);
    const id = prepared.jobId ?? randomUUID();
    const existing = pending.get(id);
    if (existing) return existing;
    let settle!: (outcome: Outcome) => void;
    const outcome = new Promise<Outcome>((resolve) => {
      settle = resolve;
    });
    let settleFirst!: (outcome: FirstAttempt) => void;
    const firstAttempt = new Promise<FirstAttempt>((resolve) => {
      settleFirst = resolve;
    });
    const entry: Entry = { id, definition, data: prepared.data, attemptsStarted: 0, outcome, settle, firstAttempt, settleFirst };
    pending.set(id, entry);
    detached.runInAsyncScope(() => schedule(entry, opts?.delayMs ?? 0));
    return entry;
  }

  function schedule(entry: Entry, delayMs: number): void {
    if (delayMs === 0) {
      // Never synchronously: the handler must not start inside the caller's call.
      setImmediate(() => makeReady(entry));
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      makeReady(entry);
    }, delayMs);
    // A delayed job or a retry alone does not keep the process alive (it would block
    // a plain exit), except while someone awaits drain() and is owed the outcome.
    if (drainWaiters.length === 0) timer.unref();
    timers.add(timer);
  }

  function makeReady(entry: Entry): void {
    ready.push(entry);
    pump();
  }

  function pump(): void {
    while (running < concurrency) {
      const entry = ready.shift();
      if (!entry) return;
      running += 1;
      void attempt(entry).finally(() => {
        running -= 1;
        pump();
        notifyIfDrained();
      });
    }
  }

  async function attempt(entry: Entry): Promise<void> {
    const { definition } = entry;
    entry.attemptsStarted += 1;
    const attemptNumber = entry.attemptsStarted;
    const log = { jobName: definition.name, jobId: entry.id, attempt: attemptNumber };
    try {
      const payload = parsePayload(definition, entry.data);
      const handler = handlers[definition.name];
      if (!handler) throw new Error(`No handler for job "${definition.name}"`);
      const value = await runHandler({ definition, handler, payload, jobId: entry.id, attempt: attemptNumber, logger, local: entry.local });
      finish(entry, { ok: true, value });
    } catch (err) {
      if (err instanceof JobDeferredError) {
        // Not an attempt: the handler could not start (its slot is free for other jobs meanwhile).
        entry.attemptsStarted -= 1;
        schedule(entry, err.delayMs);
        return;
      }
      // An invalid payload will not become valid on a retry (BullMQ's worker fails
      // it as unrecoverable too).
      if (err instanceof JobPayloadError || attemptNumber >= definition.attempts) {
        logger.error({ ...log, err }, 'job failed; giving up');
        finish(entry, { ok: false, error: err });
        return;
      }
      const delayMs = retryDelayMs(definition.backoff, attemptNumber);
      logger.warn({ ...log, err, retryInMs: delayMs }, 'job failed; will retry');
      entry.settleFirst({ ok: false, error: err, retrying: true });
      schedule(entry, delayMs);
    }
  }

  function finish(entry: Entry, outcome: Outcome): void {
    pending.delete(entry.id);
    entry.settleFirst(outcome);
    entry.settle(outcome);
  }

  function notifyIfDrained(): void {
    if (pending.size > 0 || running > 0) return;
    const waiters = drainWaiters;
    drainWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function drain(): Promise<void> {
    if (pending.size === 0 && running === 0) return Promise.resolve();
    for (const timer of timers) timer.ref();
    return new Promise((resolve) => drainWaiters.push(resolve));
  }

  function stopSchedules(): void {
    for (const timer of scheduleTimers.values()) clearTimeout(timer);
    scheduleTimers.clear();
  }

  function arm(schedule: JobSchedule<R>): void {
    const name = schedule.name as string;
    const dueAt = nextRunAfter(schedule.repeat, new Date()).getTime();
    const step = () => {
      const left = dueAt - Date.now();
      const timer = setTimeout(() => {
        if (closed || scheduleTimers.get(name) !== timer) return;
        if (left > MAX_TIMER_MS) return step();
        // One id per schedule: a run still queued or running makes this one a no-op.
        try {
          add(name, schedule.payload, { jobId: `schedule-${name}` });
        } catch (err) {
          logger.error({ err, jobName: name }, 'could not queue a scheduled job');
        }
        arm(schedule);
      }, Math.min(Math.max(left, 0), MAX_TIMER_MS));
      timer.unref();
      scheduleTimers.set(name, timer);
    };
    detached.runInAsyncScope(step);
  }

  return {
    async setSchedules(schedules) {
      if (closed) throw new Error('Job queue is closed');
      assertSchedules(registry, schedules);
      stopSchedules();
      for (const schedule of schedules) arm(schedule);
    },

    async depth() {
      // in memory nothing is kept once it has failed for good
      return { waiting: ready.length, delayed: Math.max(0, pending.size - ready.length - running), active: running, failed: 0 };
    },

    async enqueue(name, payload, opts) {
      return { id: add(name, payload, opts).id };
    },

    async enqueueAndWait(name, payload, opts: EnqueueAndWaitOptions) {
      assertWaitOptions(opts);
      const entry = add(name, payload, opts);
      const local = opts.local !== undefined && entry.local === undefined ? opts.local : undefined;
      if (local) entry.local = local;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), opts.timeoutMs);
      });
      const awaited = opts.until === 'first-attempt' ? entry.firstAttempt : entry.outcome;
      const outcome = await Promise.race([awaited, timedOut]).finally(() => {
        clearTimeout(timer);
        if (local && entry.local === local) entry.local = undefined;
      });
      if (outcome === 'timeout') throw new JobWaitTimeoutError(name, entry.id, opts.timeoutMs);
      if (outcome.ok) return outcome.value;
      const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      if ('retrying' in outcome) throw new JobRetryingError(name, entry.id, reason);
      throw new JobFailedError(name, entry.id, reason, { cause: outcome.error });
    },

    drain,

    async close() {
      closed = true;
      stopSchedules();
      await drain();
    },
  };
}

/** BullMQ's formulas, so that both modes space their retries alike. */
export function retryDelayMs(backoff: JobBackoff, failedAttempts: number): number {
  if (backoff.type === 'fixed') return backoff.delayMs;
  return Math.round(backoff.delayMs * 2 ** (failedAttempts - 1));
}
