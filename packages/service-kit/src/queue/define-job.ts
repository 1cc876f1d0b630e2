import type { z } from 'zod';

/** How long to wait before a retry: `delayMs` every time, or doubling from `delayMs`. */
export interface JobBackoff {
  type: 'exponential' | 'fixed';
  delayMs: number;
}

export interface DefineJobOptions<Name extends string, Schema extends z.ZodType> {
  /** Unique within the service's registry, e.g. `email.send`. */
  name: Name;
  /** Describes the payload as it travels: JSON in, the handler's input out. */
  schema: Schema;
  /** Total runs before the job is given up, the first one included. Default 5. */
  attempts?: number;
  /** Default: exponential from 2 s (2, 4, 8, 16 s between the 5 default attempts). */
  backoff?: JobBackoff;
  /**
   * Gives the job a deterministic id, so enqueueing the same work twice (a retried
   * request, a replayed event) does not run it twice.
   */
  dedupeId?: (payload: z.output<Schema>) => string;
  /**
   * BullMQ only: `true` forgets a completed job at once, a number keeps that many of
   * the latest completed jobs. Default 100.
   */
  removeOnComplete?: boolean | number;
  /** Fails an attempt (which may then be retried) that runs longer than this. */
  timeoutMs?: number;
}

/**
 * A job as the rest of the layer sees it: the schema plus its retry policy, with the
 * defaults filled in. `Input` is what callers enqueue, `Payload` what the handler
 * receives; they differ only when the schema has defaults or transforms.
 */
export interface JobDefinition<Name extends string = string, Payload = unknown, Input = Payload> {
  readonly name: Name;
  readonly schema: z.ZodType<Payload, Input>;
  readonly attempts: number;
  readonly backoff: JobBackoff;
  readonly dedupeId?: (payload: Payload) => string;
  readonly removeOnComplete: boolean | number;
  readonly timeoutMs?: number;
}

// `any` rather than `unknown`: a definition's `dedupeId` takes its own payload type,
// and a function parameter only widens to `any`.
export type AnyJobDefinition = JobDefinition<string, any, any>;

export const DEFAULT_ATTEMPTS = 5;
export const DEFAULT_BACKOFF: JobBackoff = { type: 'exponential', delayMs: 2000 };
export const DEFAULT_REMOVE_ON_COMPLETE = 100;

export function defineJob<const Name extends string, Schema extends z.ZodType>(
  options: DefineJobOptions<Name, Schema>,
): JobDefinition<Name, z.output<Schema>, z.input<Schema>> {
  const { name, schema, attempts = DEFAULT_ATTEMPTS, backoff = DEFAULT_BACKOFF } = options;
  const removeOnComplete = options.removeOnComplete ?? DEFAULT_REMOVE_ON_COMPLETE;
  // Misconfiguration is caught when the module defining the job loads, not when the
  // first job of that kind fails in production.
  if (typeof name !== 'string' || name.length === 0) throw new Error('Job name must be a non-empty string');
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new Error(`Job "${name}": attempts must be an integer of at least 1, got ${attempts}`);
  }
  if (!Number.isFinite(backoff.delayMs) || backoff.delayMs < 0) {
    throw new Error(`Job "${name}": backoff.delayMs must be a non-negative number, got ${backoff.delayMs}`);
  }
  if (typeof removeOnComplete === 'number' && (!Number.isInteger(removeOnComplete) || removeOnComplete < 0)) {
    throw new Error(`Job "${name}": removeOnComplete must be a boolean or a non-negative integer`);
  }
  if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new Error(`Job "${name}": timeoutMs must be a positive number, got ${options.timeoutMs}`);
  }
  return Object.freeze({
    name,
    // Holds by zod's definition of output/input; TypeScript cannot see it through a generic.
    schema: schema as z.ZodType<z.output<Schema>, z.input<Schema>>,
    attempts,
    backoff: { ...backoff },
    dedupeId: options.dedupeId,
    removeOnComplete,
    timeoutMs: options.timeoutMs,
  });
}
