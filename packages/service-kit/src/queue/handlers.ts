import type { JobLogger } from './logger';
import type { AnyJobDefinition } from './define-job';
import type { JobNameOf, JobPayloadOf, JobRegistry } from './registry';

/** What a handler learns about the run it is part of. */
export interface JobContext {
  /** Stable across attempts; the dedupe id when the definition has one. */
  jobId: string;
  /** 1 on the first run, 2 on the first retry, and so on. */
  attempt: number;
  /** Logs with the job's name, id and attempt attached. */
  logger: JobLogger;
  /**
   * Aborted when the attempt exceeds the definition's `timeoutMs`. The attempt is
   * failed at that moment either way; a handler that honours the signal also stops
   * its work instead of finishing it unobserved.
   */
  signal: AbortSignal;
  /**
   * The enqueuer's in-memory value (`enqueueAndWait`'s `local`) when this attempt runs in
   * the process that is waiting for it; `undefined` otherwise, and the handler must then
   * work from the payload alone.
   */
  local?: object;
}

export type JobHandler<Payload> = (payload: Payload, ctx: JobContext) => Promise<unknown>;

/** One handler per job of the registry, no more and no fewer. */
export type JobHandlers<R extends JobRegistry> = {
  [Name in JobNameOf<R>]: JobHandler<JobPayloadOf<R, Name>>;
};

/** The handlers of some of a service's jobs (one feature's, in its `jobs.ts`), keyed by job name. */
export type JobHandlersOf<Defs extends AnyJobDefinition> = JobHandlers<JobRegistry<Defs>>;

/**
 * Start-up check that handlers and registry agree. The types already demand it, but
 * handlers assembled dynamically or cast would otherwise fail only when the first
 * job of a forgotten kind arrives.
 */
export function assertHandlers<R extends JobRegistry>(registry: R, handlers: object): asserts handlers is JobHandlers<R> {
  const given = handlers as Record<string, unknown>;
  const missing = registry.names.filter((name) => typeof given[name] !== 'function');
  const extra = Object.keys(given).filter((name) => registry.find(name) === undefined);
  if (missing.length === 0 && extra.length === 0) return;
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`no handler for ${quoteAll(missing)}`);
  if (extra.length > 0) problems.push(`handler for undefined job ${quoteAll(extra)}`);
  throw new Error(`Job handlers do not match the registry: ${problems.join('; ')}`);
}

function quoteAll(names: readonly string[]): string {
  return names.map((name) => `"${name}"`).join(', ');
}
