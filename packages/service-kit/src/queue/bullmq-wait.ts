import type { Job, Queue, QueueEvents } from 'bullmq';
import { bullmq } from './bullmq-module';

export type WaitOutcome = { ok: true; value: unknown } | { ok: false; reason: string; retrying: boolean } | 'timeout' | 'closed';

/**
 * Waits for a BullMQ job from the queue's event stream: it completed (`completed`), failed
 * for good (`failed`: BullMQ adds that event only once no attempt is left), or, when
 * `firstAttempt` is set, failed with a retry due (`delayed` when the retry has a backoff,
 * `waiting` coming back from `active` when it has none). `listener` must have been reading
 * the stream since before the job was added, so none of its events is missed. A job found
 * already finished (an id added again while its earlier run is kept) answers at once. A job
 * removed on completion is no trouble: its `completed` event carries the result (BullMQ's
 * `waitUntilFinished` asks for the job's key and fails when it is gone). `closing` ends the
 * wait ('closed') when the queue closes.
 */
export function waitForJob(listener: QueueEvents, queue: Queue, job: Job, timeoutMs: number, firstAttempt: boolean, closing: AbortSignal): Promise<WaitOutcome> {
  const id = job.id as string;
  return new Promise((resolve) => {
    let settled = false;
    const onCompleted = (args: { jobId: string; returnvalue: unknown }) => {
      if (args.jobId === id) done({ ok: true, value: parseReturnValue(args.returnvalue) });
    };
    const onFailed = (args: { jobId: string; failedReason: string }) => {
      if (args.jobId === id) done({ ok: false, reason: args.failedReason, retrying: false });
    };
    const onDelayed = (args: { jobId: string }) => {
      if (firstAttempt && args.jobId === id) done({ ok: false, reason: 'the attempt failed; a retry is scheduled', retrying: true });
    };
    const onWaiting = (args: { jobId: string; prev?: string }) => {
      if (firstAttempt && args.jobId === id && args.prev === 'active') done({ ok: false, reason: 'the attempt failed; a retry is queued', retrying: true });
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    const onClose = () => done('closed');
    function done(outcome: WaitOutcome) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      closing.removeEventListener('abort', onClose);
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
    if (closing.aborted) return done('closed');
    closing.addEventListener('abort', onClose);
    void finishedBefore(queue, id).then(
      (outcome) => outcome && done(outcome),
      () => undefined,
    );
  });
}

/** The outcome of a job that had finished before this wait began, if it had. */
async function finishedBefore(queue: Queue, id: string): Promise<WaitOutcome | undefined> {
  const state = await queue.getJobState(id);
  if (state !== 'completed' && state !== 'failed') return undefined;
  const job = await bullmq().Job.fromId(queue, id);
  if (!job) return undefined;
  return state === 'completed' ? { ok: true, value: job.returnvalue } : { ok: false, reason: job.failedReason, retrying: false };
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
