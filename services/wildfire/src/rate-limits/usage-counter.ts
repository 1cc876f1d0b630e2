import type { UsageDelta, UsageRepository } from './repository';
import { monthInSpain } from './month';

/**
 * The monthly request counters of the accounts, kept off the request path: a request
 * increments a counter (Redis, or this process's memory without Redis) and the counts
 * reach `account_usage` in batches, every flush interval and at shutdown.
 */
export interface UsageCounter {
  /**
   * Counts one request of the account's month and returns the month's new total; null
   * when `quota` is already spent (nothing is counted then). The check and the increment
   * are one atomic step, so no instance can admit a request past the quota.
   */
  count(accountId: string, month: string, quota: number | null, now: Date): Promise<number | null>;
  /** The month's requests: those already in Postgres plus those still pending, each once. */
  requests(accountId: string, month: string, now: Date): Promise<number>;
  /** Moves the pending counts to Postgres; resolves with how many requests it moved. */
  flush(): Promise<number>;
  /** Stops the periodic flush and flushes what is pending. */
  close(): Promise<void>;
}

export interface UsageCounterOptions {
  repo: Pick<UsageRepository, 'addRequests' | 'requests'>;
  /** How often pending counts are flushed to Postgres (WILDFIRE_USAGE_FLUSH_MS). */
  flushMs: number;
  clock: () => Date;
  logger: { warn(obj: object, msg?: string): void };
}

/**
 * Runs `flush` every `ms` (never two at once) until `stop()`, which waits for the one
 * running and runs a last one. A failed flush is logged; its counts stay pending.
 */
export function flushPeriodically(flush: () => Promise<number>, ms: number, logger: UsageCounterOptions['logger']) {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    running = flush()
      .catch((err: unknown) => logger.warn({ err }, 'could not flush the usage counters to Postgres; they stay pending'))
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(tick, ms);
  timer.unref();
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
      await flush();
    },
  };
}

interface MemoryEntry {
  accountId: string;
  month: string;
  /** Flushed plus pending. */
  total: number;
  pending: number;
}

/**
 * Embedded mode (no Redis): the counters live in this process, which is then the only
 * one serving the account, so a check-and-increment without an await in between is atomic.
 * Each account-month is read once from Postgres, then counted here.
 */
export function createMemoryUsageCounter(options: UsageCounterOptions): UsageCounter {
  const { repo, clock } = options;
  const entries = new Map<string, MemoryEntry>();
  const loading = new Map<string, Promise<MemoryEntry>>();

  async function entry(accountId: string, month: string): Promise<MemoryEntry> {
    const key = `${accountId}:${month}`;
    const known = entries.get(key);
    if (known) return known;
    let load = loading.get(key);
    if (!load) {
      load = repo.requests(accountId, month).then((flushed) => {
        const created = { accountId, month, total: flushed, pending: 0 };
        entries.set(key, created);
        loading.delete(key);
        return created;
      });
      load.catch(() => loading.delete(key));
      loading.set(key, load);
    }
    return load;
  }

  async function flush(): Promise<number> {
    const deltas: UsageDelta[] = [];
    const taken: MemoryEntry[] = [];
    for (const e of entries.values()) {
      if (e.pending > 0) {
        deltas.push({ accountId: e.accountId, month: e.month, requests: e.pending });
        taken.push(e);
        e.pending = 0;
      }
    }
    try {
      await options.repo.addRequests(deltas, clock());
    } catch (err) {
      taken.forEach((e, i) => (e.pending += deltas[i]!.requests));
      throw err;
    }
    // Months that are over and fully flushed are never counted again.
    const month = monthInSpain(clock());
    for (const [key, e] of entries) if (e.pending === 0 && e.month < month) entries.delete(key);
    return deltas.reduce((sum, d) => sum + d.requests, 0);
  }

  const periodic = flushPeriodically(flush, options.flushMs, options.logger);
  return {
    async count(accountId, month, quota) {
      const e = await entry(accountId, month);
      if (quota !== null && e.total >= quota) return null;
      e.total += 1;
      e.pending += 1;
      return e.total;
    },
    async requests(accountId, month) {
      return (await entry(accountId, month)).total;
    },
    flush,
    close: () => periodic.stop(),
  };
}
