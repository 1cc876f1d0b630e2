import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError, InternalError, ValidationError, type ValidationIssue } from '@firma-riesgo/errors';
import { FairQueue, halfOf } from '../fair-queue';
import { currentToolCaller, shuttingDown, ToolCallAbortedError } from '../tool-caller';
import { OutputBudgetExceededError, type OutputBudget } from '../output-budget';
import { PatternTimeoutError, ToolsBusyError, WorkerTimeoutError } from './errors';
import type { WorkerOps, WorkerRequest, WorkerResponse } from './worker-protocol';

/**
 * The compiled worker script. From src (jest) and from dist alike, `../../dist/tools`
 * lands on the build output; the test command builds before it runs.
 */
export const PDF_WORKER_SCRIPT = resolve(__dirname, '../../dist/tools/pdf-worker.js');

export interface WorkerPoolOptions {
  /** Worker threads; default: the cores available, at most 4. */
  size?: number;
  /** Jobs allowed to wait for a worker; beyond it, 503 TOOLS_BUSY. */
  maxQueue?: number;
  /** Jobs one client may run at once; default half the workers (at least one). */
  maxPerClient?: number;
  /** Jobs one client may have waiting; beyond it that client gets 503 TOOLS_BUSY; default a quarter of maxQueue. */
  maxQueuePerClient?: number;
  /** Time limit of a job that sets none; the worker is terminated when it runs over. */
  defaultTimeoutMs?: number;
  /** Heap limit of each worker; a job that needs more fails alone instead of the process. */
  maxHeapMb?: number;
  /**
   * Every job must say whose it is (RunOptions.client or the caller's), or declare itself
   * `internal`: a job with neither is refused (500 TOOL_CLIENT_MISSING) instead of running
   * outside every client's fair share. Services turn it on; a bare pool (tests, scripts) need not.
   */
  requireClient?: boolean;
  script?: string;
}

export interface RunOptions {
  timeoutMs?: number;
  /** Whose job this is (API key id or IP); default: the caller set by withToolCaller. None: internal work, not capped. */
  client?: string;
  /** The service's own work (a start-up check), for nobody: not capped. Needed for a client-less job when the pool requires clients. */
  internal?: boolean;
  /** Aborting drops a waiting job or terminates the worker running it; default: the caller's signal. */
  signal?: AbortSignal;
  /** Largest result (the bytes of its byte arrays) the job may return; default: what is left of the caller's output budget, if any. */
  maxResultBytes?: number;
}

export interface PoolStats {
  size: number;
  started: number;
  busy: number;
  queued: number;
}

export interface PdfWorkerPool {
  /** Runs `op` on a worker thread; inputs are copied, results transferred back. */
  run<K extends keyof WorkerOps>(op: K, args: WorkerOps[K]['args'], options?: RunOptions): Promise<WorkerOps[K]['result']>;
  stats(): PoolStats;
  /** Terminates every worker; queued and running jobs reject. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  client: string;
  op: string;
  args: unknown;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  maxResultBytes?: number;
  budget?: OutputBudget;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
  deadline?: NodeJS.Timeout;
}

export const DEFAULT_WORKER_TIMEOUT_MS = 120_000;

/**
 * A small pool of worker threads for the CPU-bound, in-process PDF work (mupdf is
 * synchronous WebAssembly; pdf-lib is synchronous JavaScript), so the request thread
 * keeps answering while a job runs. A job that runs over its limit, or over a budget
 * it declared itself (a user regex: see `deadline` in worker-protocol.ts), has its
 * worker terminated: the only way to stop synchronous code. A replacement starts on demand.
 *
 * Fairness: one client (RunOptions.client) runs at most maxPerClient jobs at once, half
 * the pool by default, and its further jobs wait in its own line (at most
 * maxQueuePerClient, then 503 TOOLS_BUSY with Retry-After); free workers go to the
 * waiting clients in turns (fair-queue.ts), so others' jobs start while one client floods.
 */
export function createWorkerPool(options: WorkerPoolOptions = {}): PdfWorkerPool {
  const size = Math.max(1, options.size ?? Math.min(4, availableParallelism()));
  const maxQueue = options.maxQueue ?? 64;
  const maxQueuePerClient = options.maxQueuePerClient ?? Math.max(1, Math.floor(maxQueue / 4));
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_WORKER_TIMEOUT_MS;
  const script = options.script ?? PDF_WORKER_SCRIPT;
  const slots: Slot[] = [];
  const queue = new FairQueue<Job>(options.maxPerClient ?? halfOf(size));
  let nextId = 0;
  let closed = false;

  function spawn(): Slot {
    const worker = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb ?? 1024 } });
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (msg: WorkerResponse) => onMessage(slot, msg));
    worker.on('error', (err) => finish(slot, undefined, new InternalError('The PDF worker failed', 'TOOL_WORKER_FAILED', { cause: err })));
    worker.on('exit', () => {
      const i = slots.indexOf(slot);
      if (i >= 0) slots.splice(i, 1);
      if (slot.job) finish(slot, undefined, new InternalError('The PDF worker stopped during the job', 'TOOL_WORKER_FAILED'));
      dispatch();
    });
    slots.push(slot);
    return slot;
  }

  function onMessage(slot: Slot, msg: WorkerResponse): void {
    const job = slot.job;
    if (!job || msg.id !== job.id) return;
    if (msg.type === 'deadline') {
      clearTimeout(slot.deadline);
      slot.deadline = undefined;
      if (msg.ms !== null) {
        const budget = msg.ms;
        slot.deadline = setTimeout(() => kill(slot, new PatternTimeoutError(budget)), budget);
      }
      return;
    }
    if (msg.type === 'done') finish(slot, msg.result);
    else if (msg.error.kind === 'output-budget') {
      // detached first: exceeding the budget aborts the call's signal, which must not terminate this (healthy) worker
      release(slot);
      job.reject(job.budget?.exceed() ?? new OutputBudgetExceededError(job.maxResultBytes ?? 0));
      dispatch();
    } else finish(slot, undefined, reviveError(msg.error));
  }

  /** Detaches the slot's job, if any, counting it as no longer running for its client. */
  function release(slot: Slot): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.timer);
    clearTimeout(slot.deadline);
    slot.job = slot.timer = slot.deadline = undefined;
    if (job) {
      queue.done(job.client);
      if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    }
    return job;
  }

  function finish(slot: Slot, result: unknown, error?: Error): void {
    const job = release(slot);
    if (job) {
      if (error) job.reject(error);
      else job.resolve(result);
    }
    dispatch();
  }

  function kill(slot: Slot, error: Error): void {
    const job = release(slot);
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    void slot.worker.terminate();
    job?.reject(error);
    dispatch();
  }

  function dispatch(): void {
    while (!closed && queue.size > 0) {
      const idle = slots.find((s) => !s.job);
      if (!idle && slots.length >= size) return;
      const next = queue.take();
      if (!next) return;
      const job = next.item;
      const slot = idle ?? spawn();
      slot.job = job;
      const s = slot;
      s.timer = setTimeout(() => kill(s, new WorkerTimeoutError(job.op, job.timeoutMs)), job.timeoutMs);
      const request: WorkerRequest = { id: job.id, op: job.op, args: job.args, maxResultBytes: job.maxResultBytes };
      s.worker.postMessage(request);
    }
  }

  return {
    run(op, args, runOptions = {}) {
      const caller = currentToolCaller();
      const named = runOptions.client ?? caller.client;
      if (named === undefined && options.requireClient && !runOptions.internal) return Promise.reject(new ClientMissingError(op));
      const client = named ?? FairQueue.ANONYMOUS;
      const signal = runOptions.signal ?? caller.signal;
      if (closed) return Promise.reject(shuttingDown());
      if (signal?.aborted) return Promise.reject(new ToolCallAbortedError());
      const busy = slots.filter((s) => s.job).length;
      if (busy >= size && queue.size >= maxQueue) return Promise.reject(new ToolsBusyError());
      const overShare = client !== FairQueue.ANONYMOUS && queue.runningOf(client) >= queue.capOf(client);
      if (overShare && queue.waitingOf(client) >= maxQueuePerClient) return Promise.reject(new ToolsBusyError());
      return new Promise((resolvePromise, rejectPromise) => {
        const job: Job = {
          id: ++nextId,
          client,
          op,
          args,
          timeoutMs: runOptions.timeoutMs ?? defaultTimeoutMs,
          resolve: resolvePromise as (v: unknown) => void,
          reject: rejectPromise,
          signal,
          maxResultBytes: runOptions.maxResultBytes ?? caller.budget?.remaining,
          budget: caller.budget,
        };
        if (signal) {
          job.onAbort = () => {
            if (queue.remove(client, job)) {
              job.reject(new ToolCallAbortedError());
              return;
            }
            const slot = slots.find((s) => s.job === job);
            if (slot) kill(slot, new ToolCallAbortedError());
          };
          signal.addEventListener('abort', job.onAbort, { once: true });
        }
        queue.push(client, job);
        dispatch();
      });
    },
    stats: () => ({ size, started: slots.length, busy: slots.filter((s) => s.job).length, queued: queue.size }),
    async close() {
      closed = true;
      const shutdown = shuttingDown();
      for (const job of queue.drain()) job.reject(shutdown);
      await Promise.all(
        slots.splice(0).map((slot) => {
          release(slot)?.reject(shutdown);
          return slot.worker.terminate();
        }),
      );
    },
  };
}

/** A job reached a pool that requires clients without one: a bug in the caller, not the client's fault. */
export class ClientMissingError extends AppError {
  constructor(op: string) {
    super(500, 'TOOL_CLIENT_MISSING', `A worker job (${op}) was started without a client; every job must carry whose it is`);
  }
}

function reviveError(error: Exclude<Extract<WorkerResponse, { type: 'failed' }>['error'], { kind: 'output-budget' }>): Error {
  if (error.kind === 'input') return new ValidationError(error.issues as ValidationIssue[], 'INVALID_INPUT');
  const err = new Error(`PDF worker job failed: ${error.message}`);
  if (error.stack) err.stack = error.stack;
  return err;
}
