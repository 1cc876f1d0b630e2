/**
 * Errors of the job layer. They are plain `Error`s, not HTTP errors: an invalid
 * payload at enqueue time is a bug in the calling service, which its error handler
 * answers as a 500 like any other unexpected error.
 */

/** One problem with a payload, as a dotted path and zod's message. */
export interface JobPayloadIssue {
  path: string;
  message: string;
}

/** The payload does not match the job's schema, or cannot travel as JSON. */
export class JobPayloadError extends Error {
  readonly jobName: string;
  readonly issues: readonly JobPayloadIssue[];

  constructor(jobName: string, issues: JobPayloadIssue[], options?: { cause?: unknown }) {
    const detail = issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
    super(`Invalid payload for job "${jobName}": ${detail}`, options);
    this.name = new.target.name;
    this.jobName = jobName;
    this.issues = issues;
  }
}

/** A job name that the registry does not define. */
export class UnknownJobError extends Error {
  readonly jobName: string;

  constructor(jobName: string) {
    super(`Unknown job "${jobName}": it is not defined in the job registry`);
    this.name = new.target.name;
    this.jobName = jobName;
  }
}

/** A job that `enqueueAndWait` waited for ended in failure (after all its attempts). */
export class JobFailedError extends Error {
  readonly jobName: string;
  readonly jobId: string;

  constructor(jobName: string, jobId: string, reason: string, options?: { cause?: unknown }) {
    super(`Job "${jobName}" (id ${jobId}) failed: ${reason}`, options);
    this.name = new.target.name;
    this.jobName = jobName;
    this.jobId = jobId;
  }
}

/**
 * `enqueueAndWait(..., { until: 'first-attempt' })`: the first attempt failed and the job
 * will be retried. It is not given up; callers answer "still working".
 */
export class JobRetryingError extends Error {
  readonly jobName: string;
  readonly jobId: string;

  constructor(jobName: string, jobId: string, reason: string) {
    super(`Job "${jobName}" (id ${jobId}) failed its first attempt and will be retried: ${reason}`);
    this.name = new.target.name;
    this.jobName = jobName;
    this.jobId = jobId;
  }
}

/**
 * `enqueueAndWait` gave up waiting. The job itself is not cancelled: it may still
 * run or finish later, so callers should answer "accepted, still working" rather
 * than "failed".
 */
export class JobWaitTimeoutError extends Error {
  readonly jobName: string;
  readonly jobId: string;
  readonly timeoutMs: number;

  constructor(jobName: string, jobId: string, timeoutMs: number) {
    super(`Job "${jobName}" (id ${jobId}) did not finish within ${timeoutMs} ms`);
    this.name = new.target.name;
    this.jobName = jobName;
    this.jobId = jobId;
    this.timeoutMs = timeoutMs;
  }
}

/** One attempt of a handler ran longer than the definition's `timeoutMs`. */
export class JobHandlerTimeoutError extends Error {
  readonly jobName: string;
  readonly timeoutMs: number;

  constructor(jobName: string, timeoutMs: number) {
    super(`Handler of job "${jobName}" did not finish within ${timeoutMs} ms`);
    this.name = new.target.name;
    this.jobName = jobName;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * Thrown by a handler that cannot start its work yet (a per-account cap is reached, say):
 * the job goes back to wait `delayMs` and runs again, and the run does not count as an
 * attempt. Its worker slot is free meanwhile, so other jobs go ahead. BullMQ moves the job
 * to its delayed set (`moveToDelayed` with `DelayedError`); the in-process queue re-arms it.
 */
export class JobDeferredError extends Error {
  readonly delayMs: number;

  constructor(delayMs: number, reason: string) {
    super(`Job deferred for ${delayMs} ms: ${reason}`);
    if (!(Number.isFinite(delayMs) && delayMs >= 0)) throw new Error(`delayMs must be a non-negative number, got ${delayMs}`);
    this.name = new.target.name;
    this.delayMs = delayMs;
  }
}
