import type { TokenRecord } from './repository';

/** What changed about tokens, as every instance's cache hears of it: one token, or every token of an account (its quota). */
export type TokenChange = { tokenId: string } | { accountId: string };

export interface TokenCacheOptions {
  /** How long a looked-up token is believed without asking Postgres again: the staleness bound if a change message is lost. */
  ttlMs: number;
  /** Most tokens kept; the least recently used goes first. */
  maxEntries: number;
  /** Monotonic milliseconds; tests move it. */
  now?: () => number;
}

interface Entry {
  record: TokenRecord;
  until: number;
}

/**
 * Token lookups of this instance, by token hash: bounded (LRU) and short-lived. Revoked
 * and expired tokens are cached too (they are refused from the record). A lookup that
 * started before a change was heard is not stored (`generation`), so a change can never
 * be undone by a slow query that read the old row.
 */
export function createTokenCache(options: TokenCacheOptions) {
  const now = options.now ?? (() => performance.now());
  // A Map iterates in insertion order: re-inserting on each hit keeps the oldest first.
  const entries = new Map<string, Entry>();
  let generation = 0;
  return {
    get size(): number {
      return entries.size;
    },
    /** Pass to `set` with the record read after it. */
    get generation(): number {
      return generation;
    },

    get(tokenHash: string): TokenRecord | undefined {
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      entries.delete(tokenHash);
      if (entry.until <= now()) return undefined;
      entries.set(tokenHash, entry);
      return entry.record;
    },

    set(tokenHash: string, record: TokenRecord, readAtGeneration: number): void {
      if (readAtGeneration !== generation) return;
      entries.delete(tokenHash);
      entries.set(tokenHash, { record, until: now() + options.ttlMs });
      if (entries.size > options.maxEntries) entries.delete(entries.keys().next().value as string);
    },

    /** Forgets what `change` makes stale (every entry when it is null: changes may have been missed). */
    drop(change: TokenChange | null): void {
      generation += 1;
      if (change === null) return entries.clear();
      for (const [hash, { record }] of entries) {
        if ('tokenId' in change ? record.id === change.tokenId : record.accountId === change.accountId) entries.delete(hash);
      }
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
