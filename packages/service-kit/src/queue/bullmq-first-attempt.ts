import type { Job, QueueEvents } from 'bullmq';

export type FirstAttemptOutcome = { ok: true; value: unknown } | { ok: false; reason: string; retrying: boolean } | 'timeout';

/**
 * Waits for the end of a BullMQ job's first attempt, from the queue's event stream: it
 * completed (`completed`), failed for good (`failed`: BullMQ adds that event only once no
 * attempt is left), or failed with a retry due (`delayed` when the retry has a backoff,
 * `waiting` coming back from `active` when it has none). `listener` must have been
 * reading the stream since before the job was added, so none of its events is missed.
 */
export function firstAttemptOf(listener: QueueEvents, job: Job, timeoutMs: number): Promise<FirstAttemptOutcome> {
  const id = job.id;
  return new Promise((resolve) => {
    const onCompleted = (args: { jobId: string; returnvalue: unknown }) => {
      if (args.jobId === id) done({ ok: true, value: parseReturnValue(args.returnvalue) });
    };
    const onFailed = (args: { jobId: string; failedReason: string }) => {
      if (args.jobId === id) done({ ok: false, reason: args.failedReason, retrying: false });
    };
    const onDelayed = (args: { jobId: string }) => {
      if (args.jobId === id) done({ ok: false, reason: 'the attempt failed; a retry is scheduled', retrying: true });
    };
    const onWaiting = (args: { jobId: string; prev?: string }) => {
      if (args.jobId === id && args.prev === 'active') done({ ok: false, reason: 'the attempt failed; a retry is queued', retrying: true });
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    function done(outcome: FirstAttemptOutcome) {
      clearTimeout(timer);
      listener.off('completed', onCompleted);
      listener.off('failed', onFailed);
      listener.off('delayed', onDelayed);
      listener.off('waiting', onWaiting);
      resolve(outcome);
    }
    listener.on('completed', onCompleted);
    listener.on('failed', onFailed);
    listener.on('delayed', onDelayed);
    listener.on('waiting', onWaiting);
  });
}

/** The event carries the handler's result as JSON text, as `Job.waitUntilFinished` reads it. */
function parseReturnValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
