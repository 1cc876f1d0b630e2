import type { AnyJobDefinition } from './define-job';
import { JobHandlerTimeoutError } from './errors';
import type { JobHandler } from './handlers';
import { bindLogger, type JobLogger } from './logger';

export interface HandlerRun {
  definition: AnyJobDefinition;
  handler: JobHandler<unknown>;
  payload: unknown;
  jobId: string;
  attempt: number;
  logger: JobLogger;
  /** The waiting enqueuer's in-memory value, when it is in this process. */
  local?: object;
}

/**
 * Runs one attempt of a handler, the same way in both modes: a context carrying the
 * job's identity, and the definition's `timeoutMs` enforced by failing the attempt
 * and aborting the context's signal.
 */
export async function runHandler(run: HandlerRun): Promise<unknown> {
  const { definition, jobId, attempt } = run;
  const controller = new AbortController();
  const ctx = {
    jobId,
    attempt,
    logger: bindLogger(run.logger, { jobName: definition.name, jobId, attempt }),
    signal: controller.signal,
    local: run.local,
  };
  // Through a promise so that a handler which throws before its first await counts
  // as a failed attempt like any other.
  const running = Promise.resolve().then(() => run.handler(run.payload, ctx));
  const { timeoutMs } = definition;
  if (timeoutMs === undefined) return running;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new JobHandlerTimeoutError(definition.name, timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([running, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
