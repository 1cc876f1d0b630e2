import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError, UnavailableError } from '@firma-riesgo/errors';
import type { OutputBudget } from './output-budget';

/**
 * Who a piece of engine or worker work is done for. The tools call the runner and the
 * pool from many files; the HTTP layer sets the caller once per request with
 * `withToolCaller`, and every run inside that request picks it up unless it passes its own.
 */
export interface ToolCaller {
  /** A stable id of the client (API key id, or IP): its share of each engine and of the pool is capped. */
  client?: string;
  /** Aborted when the client has gone: queued work is dropped, running engines are killed with their group. */
  signal?: AbortSignal;
  /** What the call may write (output-budget.ts); exceeding it aborts the call's work like `signal`. */
  budget?: OutputBudget;
  /**
   * Takes work to do once the call's answer is sent: the HTTP layer runs it when the
   * response closes. withTempDir hands over the removal of its dir, so the answer does not
   * wait for unlinks (temp-dir.ts). Without it, that work is done before the call resolves.
   */
  afterAnswer?: (task: () => Promise<void>) => void;
}

const storage = new AsyncLocalStorage<ToolCaller>();

export function withToolCaller<T>(caller: ToolCaller, fn: () => Promise<T>): Promise<T> {
  const { budget, signal } = caller;
  // engines and worker jobs listen to one signal: the client leaving, or the budget running out
  const stops = budget ? { ...caller, signal: signal ? AbortSignal.any([signal, budget.signal]) : budget.signal } : caller;
  return storage.run(stops, fn);
}

/** Counts a file the current call produced against its output budget, if it has one (413 past it). */
export function chargeOutput(bytes: number): void {
  currentToolCaller().budget?.charge(bytes);
}

export function currentToolCaller(): ToolCaller {
  return storage.getStore() ?? {};
}

/**
 * An AbortSignal that fires when the response closes before it was completely sent:
 * the client disconnected, so its work should stop.
 */
export function abortSignalOnClose(res: { once(event: 'close', listener: () => void): unknown; readonly writableFinished: boolean }): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** The client went away; its work was dropped. Nobody reads the answer, the code is for logs. */
export class ToolCallAbortedError extends AppError {
  constructor() {
    super(499, 'REQUEST_ABORTED', 'The client closed the request; its work was stopped');
  }
}

/** Refused because the process is shutting down (the pool and the runner use the same error). */
export const shuttingDown = () => new UnavailableError('The service is shutting down', 'SHUTTING_DOWN');
