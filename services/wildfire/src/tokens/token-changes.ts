import type { Redis } from 'ioredis';
import { credentialChangePublisher, followCredentialChanges } from '@firma-riesgo/auth';
import type { TokenCache, TokenChange } from './token-cache';

/** The Redis pub/sub channel of token changes, under RATE_LIMIT_PREFIX. */
export const tokenChangesChannel = (prefix: string) => `${prefix}:token-changes`;

function parseChange(message: string): TokenChange | null {
  try {
    const value = JSON.parse(message) as Record<string, unknown>;
    if (typeof value.tokenId === 'string') return { tokenId: value.tokenId };
    if (typeof value.accountId === 'string') return { accountId: value.accountId };
  } catch {
    // A message of another shape: treated as "something changed".
  }
  return null;
}

/** Tells every instance (through Redis) that tokens changed; rejects when Redis cannot be told. */
export function tokenChangePublisher(redis: Redis, prefix: string) {
  return credentialChangePublisher<TokenChange>(redis, tokenChangesChannel(prefix));
}

/**
 * Keeps `cache` in step with token changes made anywhere (any instance, the CLI); see
 * `followCredentialChanges`: the cache is emptied each time the subscriber (re)subscribes,
 * and its TTL bounds what a lost message can leave behind.
 */
export function followTokenChanges(
  subscriber: Redis,
  prefix: string,
  cache: Pick<TokenCache, 'drop'>,
  logger: { warn(obj: object, msg?: string): void },
): Promise<() => Promise<void>> {
  return followCredentialChanges({ subscriber, channel: tokenChangesChannel(prefix), parse: parseChange, cache, logger, what: 'token changes', cached: 'tokens' });
}
