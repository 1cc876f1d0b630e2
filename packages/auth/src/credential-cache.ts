export interface CredentialCacheOptions<R, C> {
  /** How long a looked-up record is believed without asking the database again: the staleness bound if a change message is lost. */
  ttlMs: number;
  /** Most records kept; the least recently used goes first. */
  maxEntries: number;
  /** Whether `change` makes `record` stale. */
  affects: (record: R, change: C) => boolean;
  /** Monotonic milliseconds; tests move it. */
  now?: () => number;
}

interface Entry<R> {
  record: R;
  until: number;
}

/**
 * Credential lookups (API keys, tokens) of this instance, by the credential's hash:
 * bounded (LRU) and short-lived. A lookup that started before a change was heard is not
 * stored (`generation`), so a change can never be undone by a slow query that read the
 * old row. Each service says which changes make which records stale (`affects`).
 */
export function createCredentialCache<R, C>(options: CredentialCacheOptions<R, C>) {
  const now = options.now ?? (() => performance.now());
  // A Map iterates in insertion order: re-inserting on each hit keeps the oldest first.
  const entries = new Map<string, Entry<R>>();
  let generation = 0;
  return {
    get size(): number {
      return entries.size;
    },
    /** Pass to `set` with the record read after it. */
    get generation(): number {
      return generation;
    },

    get(hash: string): R | undefined {
      const entry = entries.get(hash);
      if (!entry) return undefined;
      entries.delete(hash);
      if (entry.until <= now()) return undefined;
      entries.set(hash, entry);
      return entry.record;
    },

    set(hash: string, record: R, readAtGeneration: number): void {
      if (readAtGeneration !== generation) return;
      entries.delete(hash);
      entries.set(hash, { record, until: now() + options.ttlMs });
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
    },

    /** Forgets what `change` makes stale (every entry when it is null: changes may have been missed). */
    drop(change: C | null): void {
      generation += 1;
      if (change === null) return entries.clear();
      for (const [hash, { record }] of entries) {
        if (options.affects(record, change)) entries.delete(hash);
      }
    },
  };
}

export type CredentialCache<R, C> = ReturnType<typeof createCredentialCache<R, C>>;
