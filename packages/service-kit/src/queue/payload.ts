import type { AnyJobDefinition } from './define-job';
import { JobPayloadError, type JobPayloadIssue } from './errors';

/** A job ready to be stored: its JSON-safe data and, when known, its id. */
export interface PreparedJob {
  /** What is stored and later re-validated by the worker. */
  data: unknown;
  /** The explicit id, else the definition's dedupe id, else undefined (the queue picks one). */
  jobId: string | undefined;
}

/**
 * Validates a payload the way the worker will see it: after a JSON round trip. A Date,
 * a Map or an `undefined` field passes a schema in memory but arrives changed in the
 * worker, so checking the round-tripped value makes such payloads fail here, in the
 * caller, and makes the in-process mode fail exactly where BullMQ would.
 */
export function prepareJob(definition: AnyJobDefinition, input: unknown, explicitJobId?: string): PreparedJob {
  const data = jsonRoundTrip(definition.name, input);
  const payload = parsePayload(definition, data);
  const jobId = explicitJobId ?? definition.dedupeId?.(payload);
  if (jobId !== undefined) assertValidJobId(definition.name, jobId);
  return { data, jobId };
}

/** Parses stored data into the handler's payload; throws JobPayloadError. */
export function parsePayload(definition: AnyJobDefinition, data: unknown): unknown {
  const result = definition.schema.safeParse(data);
  if (result.success) return result.data;
  const issues: JobPayloadIssue[] = result.error.issues.map((issue) => ({
    path: issue.path.map((key) => String(key)).join('.'),
    message: issue.message,
  }));
  throw new JobPayloadError(definition.name, issues, { cause: result.error });
}

/**
 * BullMQ's rules for custom ids, applied in both modes so that an id that works in
 * embedded mode cannot start failing once REDIS_URL is set: an integer-looking id
 * could collide with BullMQ's own counter ids, and ':' separates Redis key parts.
 */
export function assertValidJobId(jobName: string, jobId: string): void {
  if (typeof jobId !== 'string' || jobId.length === 0) {
    throw new Error(`Job "${jobName}": job id must be a non-empty string`);
  }
  if (`${parseInt(jobId, 10)}` === jobId) {
    throw new Error(`Job "${jobName}": job id "${jobId}" must not be an integer (those are BullMQ's own ids)`);
  }
  if (jobId.includes(':')) throw new Error(`Job "${jobName}": job id "${jobId}" must not contain ':'`);
}

function jsonRoundTrip(jobName: string, input: unknown): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch (err) {
    throw new JobPayloadError(jobName, [{ path: '', message: `not serialisable as JSON (${(err as Error).message})` }], {
      cause: err,
    });
  }
  if (json === undefined) throw new JobPayloadError(jobName, [{ path: '', message: 'not serialisable as JSON' }]);
  return JSON.parse(json) as unknown;
}
