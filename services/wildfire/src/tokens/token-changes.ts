import type { Redis } from 'ioredis';
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
  const channel = tokenChangesChannel(prefix);
  return async (change: TokenChange): Promise<void> => {
    await redis.publish(channel, JSON.stringify(change));
  };
}

/**
 * Keeps `cache` in step with token changes made anywhere (any instance, the CLI): a
 * dedicated subscriber connection drops what each message names. While it is not
 * subscribed, messages may be lost, so the cache is emptied each time it (re)subscribes;
 * the cache's TTL bounds what a lost message can leave behind.
 */
export async function followTokenChanges(
  subscriber: Redis,
  prefix: string,
  cache: Pick<TokenCache, 'drop'>,
  logger: { warn(obj: object, msg?: string): void },
): Promise<() => Promise<void>> {
  const channel = tokenChangesChannel(prefix);
  const subscribe = () =>
    subscriber.subscribe(channel).catch((err: unknown) => logger.warn({ err }, 'could not subscribe to token changes; cached tokens live out their TTL'));
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) cache.drop(parseChange(message));
  });
  // After a reconnection: whatever was published meanwhile is lost, so start afresh.
  subscriber.on('ready', () => {
    cache.drop(null);
    void subscribe();
  });
  await subscribe();
  return async () => {
    await subscriber.quit().catch(() => subscriber.disconnect());
  };
}
