/** A tiny per-key semaphore: at most `limit` holders of one key at a time in this process. */
export function keyedLimiter(limit: number) {
  const active = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    if ((active.get(key) ?? 0) >= limit) await new Promise<void>((resolve) => waiting.set(key, [...(waiting.get(key) ?? []), resolve]));
    active.set(key, (active.get(key) ?? 0) + 1);
    try {
      return await fn();
    } finally {
      const left = (active.get(key) ?? 1) - 1;
      if (left === 0) active.delete(key);
      else active.set(key, left);
      const next = waiting.get(key)?.shift();
      if (waiting.get(key)?.length === 0) waiting.delete(key);
      next?.();
    }
  };
}
