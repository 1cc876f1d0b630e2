/**
 * `enqueueAndWait`'s `local` values with BullMQ: the producer and a worker of the same
 * process share this map, keyed by Redis prefix, queue and job id, so a handler that runs
 * here while its enqueuer waits gets the value, and one in another process does not. The
 * producer removes its entry when it stops waiting, whatever happened.
 */
const values = new Map<string, object>();

function keyOf(prefix: string | undefined, queueName: string, jobId: string): string {
  return `${prefix ?? 'bull'}\u0000${queueName}\u0000${jobId}`;
}

export const localValues = {
  /** Keeps `value` for the job unless another waiter already did; answers whether it was kept. */
  offer(prefix: string | undefined, queueName: string, jobId: string, value: object): boolean {
    const key = keyOf(prefix, queueName, jobId);
    if (values.has(key)) return false;
    values.set(key, value);
    return true;
  },
  get(prefix: string | undefined, queueName: string, jobId: string): object | undefined {
    return values.get(keyOf(prefix, queueName, jobId));
  },
  withdraw(prefix: string | undefined, queueName: string, jobId: string, value: object): void {
    const key = keyOf(prefix, queueName, jobId);
    if (values.get(key) === value) values.delete(key);
  },
};
