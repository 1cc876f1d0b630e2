import type { AnyJobDefinition } from './define-job';
import type { JobInputOf, JobNameOf, JobRegistry } from './registry';
import type { JobSchedule } from './repeat';

export interface EnqueueOptions {
  /** Run no sooner than this many milliseconds from now. */
  delayMs?: number;
  /** Overrides the definition's dedupe id. Enqueueing an id that is still queued is a no-op. */
  jobId?: string;
}

export interface EnqueueAndWaitOptions extends EnqueueOptions {
  /** How long to wait for the outcome; the job itself keeps going past it. */
  timeoutMs: number;
  /**
   * What is waited for. `settled` (the default): the job completes, or is given up after
   * its last attempt. `first-attempt`: its first attempt ends; when that attempt fails and
   * a retry is due, the wait rejects with JobRetryingError and the job goes on retrying.
   * For a caller that answers the outcome if it is quick and the state otherwise.
   */
  until?: 'settled' | 'first-attempt';
  /**
   * A value kept in memory, never serialised: the handler receives it as `ctx.local` when
   * its attempt runs in this process while the caller is still waiting (the rows and bytes
   * the caller already holds, so the handler need not read them again), and `undefined`
   * otherwise (another process ran it, or the wait had ended), when it reads what it needs.
   * The handler may write its result into it. Jobs with no dedupe id get a random id.
   */
  local?: object;
  /**
   * With `until: 'first-attempt'`, in a process that runs this queue's jobs itself: the first
   * attempt runs here, without the queue's round trips, and only a failed one is queued for
   * its retries (first-attempt-here.ts). Elsewhere (an API-only process, embedded mode) the
   * job is queued as usual.
   */
  firstAttemptHere?: boolean;
}

/**
 * Where services put work to be done after their transaction commits. The BullMQ and
 * in-process implementations share this interface, so a service is written once and
 * runs embedded (no REDIS_URL) or against Redis with separate workers.
 */
export interface JobQueue<R extends JobRegistry = JobRegistry> {
  /** Validates the payload (throws JobPayloadError) and queues the job; returns its id. */
  enqueue<Name extends JobNameOf<R>>(
    name: Name,
    payload: JobInputOf<R, Name>,
    opts?: EnqueueOptions,
  ): Promise<{ id: string }>;
  /**
   * Queues the job and resolves with its handler's result once it completes, retries
   * included. Rejects with JobFailedError when it is given up, JobWaitTimeoutError
   * when `timeoutMs` passes first.
   */
  enqueueAndWait<Name extends JobNameOf<R>>(
    name: Name,
    payload: JobInputOf<R, Name>,
    opts: EnqueueAndWaitOptions,
  ): Promise<unknown>;
  /**
   * Makes `schedules` the queue's repeatable jobs: each job named runs on its repeat with
   * its payload, and a job scheduled before but not named any more stops repeating. Called
   * by the processes that run jobs, at start. BullMQ keeps one scheduler per job name in
   * Redis (`upsertJobScheduler`), so however many workers declare it, each run happens
   * once; the in-process queue runs timers that `close()` stops. A run still queued or
   * running when the next one is due makes that next one a no-op in-process; with BullMQ
   * a slow run may overlap the next, so a handler that must not overlap itself takes an
   * advisory lock (`runIfUnlocked`).
   */
  setSchedules(schedules: readonly JobSchedule<R>[]): Promise<void>;
  /** Jobs waiting (due now or delayed, retries included), running, and failed for good: for health views. */
  depth(): Promise<QueueDepth>;
  close(): Promise<void>;
}

/** What a feature that queues `Defs` depends on: `enqueue` for those jobs only, not the service's whole registry. */
export type JobEnqueuer<Defs extends AnyJobDefinition> = Pick<JobQueue<JobRegistry<Defs>>, 'enqueue'>;

/** What a feature that enqueues `Defs` and waits for them depends on: `enqueueAndWait` for those jobs only. */
export type JobWaiter<Defs extends AnyJobDefinition> = Pick<JobQueue<JobRegistry<Defs>>, 'enqueueAndWait'>;

export interface QueueDepth {
  waiting: number;
  delayed: number;
  active: number;
  failed: number;
}

/** Several jobs at a time per process: jobs are mostly I/O (mail, HTTP, PDF storage). */
export const DEFAULT_CONCURRENCY = 5;

export function assertEnqueueOptions(opts: EnqueueOptions | undefined): void {
  const delayMs = opts?.delayMs;
  if (delayMs !== undefined && !(Number.isFinite(delayMs) && delayMs >= 0)) {
    throw new Error(`delayMs must be a non-negative number, got ${delayMs}`);
  }
}

export function assertWaitOptions(opts: EnqueueAndWaitOptions): void {
  assertEnqueueOptions(opts);
  if (!(Number.isFinite(opts.timeoutMs) && opts.timeoutMs > 0)) {
    throw new Error(`timeoutMs must be a positive number, got ${opts.timeoutMs}`);
  }
  // A delayed job's first event is its delay, which would read as a retry.
  if (opts.until === 'first-attempt' && opts.delayMs) throw new Error('until: first-attempt cannot wait for a delayed job');
  if (opts.firstAttemptHere && opts.until !== 'first-attempt') throw new Error("firstAttemptHere needs until: 'first-attempt'");
}

export function assertConcurrency(concurrency: number): void {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error(`concurrency must be an integer of at least 1, got ${concurrency}`);
  }
}
