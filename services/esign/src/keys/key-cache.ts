import type { Redis } from 'ioredis';
import { createCredentialCache, credentialChangePublisher, followCredentialChanges, type CredentialCache } from '@firma-riesgo/auth';
import type { KeyRecord } from './repository';

/**
 * What changed about API keys, as every instance's cache hears of it. Revocation is the
 * only change a key's record sees after it is created (its tenant's name and its role
 * never change; `last_used_at` is not read from the cache for anything that matters).
 */
export type KeyChange = { keyId: string };

export interface KeyCacheOptions {
  /** How long a looked-up key is believed without asking Postgres again: the staleness bound if a change message is lost. */
  ttlMs: number;
  /** Most keys kept; the least recently used goes first. */
  maxEntries: number;
  /** Monotonic milliseconds; tests move it. */
  now?: () => number;
}

/** Active-key lookups of this instance, by key hash (as wildfire's token cache: `@firma-riesgo/auth`'s credential cache). */
export function createKeyCache(options: KeyCacheOptions): KeyCache {
  return createCredentialCache<KeyRecord, KeyChange>({ ...options, affects: (record, change) => record.id === change.keyId });
}

export type KeyCache = CredentialCache<KeyRecord, KeyChange>;

/** The Redis pub/sub channel of API-key changes, under ESIGN_RATE_LIMIT_PREFIX. */
export const keyChangesChannel = (prefix: string) => `${prefix}:key-changes`;

function parseChange(message: string): KeyChange | null {
  try {
    const value = JSON.parse(message) as Record<string, unknown>;
    if (typeof value.keyId === 'string') return { keyId: value.keyId };
  } catch {
    // A message of another shape: treated as "something changed".
  }
  return null;
}

/** Tells every instance (through Redis) that a key changed; rejects when Redis cannot be told. */
export function keyChangePublisher(redis: Redis, prefix: string) {
  return credentialChangePublisher<KeyChange>(redis, keyChangesChannel(prefix));
}

/** Keeps `cache` in step with key changes made anywhere (any instance, the CLI); emptied on each (re)subscription. */
export function followKeyChanges(subscriber: Redis, prefix: string, cache: Pick<KeyCache, 'drop'>, logger: { warn(obj: object, msg?: string): void }) {
  return followCredentialChanges({ subscriber, channel: keyChangesChannel(prefix), parse: parseChange, cache, logger, what: 'API key changes', cached: 'keys' });
}
