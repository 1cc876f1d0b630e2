import { createCredentialCache, credentialChangePublisher, followCredentialChanges, type CredentialCache } from '@firma-riesgo/auth';
import type { Redis } from 'ioredis';
import type { Reading } from './reading';
import type { TProvenance } from './schemas';

/** A municipality's latest stored reading as m1 answers it, or null: none is stored yet. */
export type LatestStored = { reading: Reading; provenance?: TProvenance } | null;

/** What the change channel says: the stored readings changed (every cached reading is dropped; ingestion is rare). */
export type ReadingsChange = { readings: 'changed' };

export const READINGS_CHANGED: ReadingsChange = { readings: 'changed' };

export interface LatestReadingCacheOptions {
  /** How long a cached latest reading is believed without asking Postgres again: the staleness bound if a change message is lost. */
  ttlMs: number;
  /** Most municipalities kept (all 8,131 fit in the default); the least recently used goes first. */
  maxEntries: number;
  /** Monotonic milliseconds; tests move it. */
  now?: () => number;
}

/**
 * The latest stored reading of each municipality, per API instance, for m1: the credential
 * caches' mechanism (`@firma-riesgo/auth`: bounded LRU, TTL, generation-guarded so a query
 * that started before a change can never store what it read), keyed by INE code. Readings
 * change only when ingestion writes them; every change drops the whole cache, here and, over
 * the Redis channel, on every instance. Live readings only: test tokens' synthetic readings
 * never enter it.
 */
export function createLatestReadingCache(options: LatestReadingCacheOptions): LatestReadingCache {
  return createCredentialCache<{ entry: LatestStored }, ReadingsChange>({ ...options, affects: () => true });
}

export type LatestReadingCache = CredentialCache<{ entry: LatestStored }, ReadingsChange>;

/** The Redis pub/sub channel of reading changes, under RATE_LIMIT_PREFIX (beside the token changes). */
export const readingChangesChannel = (prefix: string) => `${prefix}:reading-changes`;

/** Tells every instance (through Redis) that stored readings changed; rejects when Redis cannot be told. */
export function readingChangePublisher(redis: Redis, prefix: string) {
  return credentialChangePublisher<ReadingsChange>(redis, readingChangesChannel(prefix));
}

/**
 * Keeps `cache` in step with ingestions made anywhere (the CLI, a worker's AEMET job, any
 * instance): every message empties it; so does each (re)subscription, and the TTL bounds
 * what a lost message can leave behind.
 */
export function followReadingChanges(
  subscriber: Redis,
  prefix: string,
  cache: Pick<LatestReadingCache, 'drop'>,
  logger: { warn(obj: object, msg?: string): void },
): Promise<() => Promise<void>> {
  return followCredentialChanges({ subscriber, channel: readingChangesChannel(prefix), parse: () => null, cache, logger, what: 'reading changes', cached: 'latest readings' });
}
