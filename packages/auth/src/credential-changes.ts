import type { Redis } from 'ioredis';

/**
 * Tells every instance (through Redis pub/sub, on `channel`) that credentials changed;
 * the returned function rejects when Redis cannot be told.
 */
export function credentialChangePublisher<C>(redis: Redis, channel: string) {
  return async (change: C): Promise<void> => {
    await redis.publish(channel, JSON.stringify(change));
  };
}

/** How a credential lifecycle (create, revoke...) reaches the caches, this instance's and every other's. */
export interface CredentialChangeOptions<C> {
  /** Lookups cached by this instance; absent: every request asks the database. */
  cache?: { drop(change: C | null): void };
  /**
   * Tells every instance's cache of a change (Redis pub/sub); called after the change is
   * committed. A failure is logged: the caches' TTL then bounds the staleness.
   */
  announce?: (change: C) => Promise<void>;
  logger?: { warn(obj: object, msg?: string): void };
}

/**
 * What a service calls once a credential change is committed: this instance's cache drops
 * it at once, then every other instance is told; a failed announcement is logged, not
 * thrown (the change stands; the other caches expire it). `what` names the change in the
 * log ("a token change").
 */
export function credentialChangeNotifier<C extends object>(options: CredentialChangeOptions<C>, what: string) {
  return async (change: C): Promise<void> => {
    options.cache?.drop(change);
    try {
      await options.announce?.(change);
    } catch (err) {
      options.logger?.warn({ err, ...change }, `could not announce ${what} to the other instances; their caches expire it`);
    }
  };
}

/**
 * Keeps `cache` in step with credential changes made anywhere (any instance, the CLI): a
 * dedicated subscriber connection drops what each message names (`parse` reads it; null:
 * "something changed", drop everything). While it is not subscribed, messages may be
 * lost, so the cache is emptied each time it (re)subscribes; the cache's TTL bounds what a
 * lost message can leave behind. Resolves with the function that stops following.
 */
export async function followCredentialChanges<C>(options: {
  subscriber: Redis;
  channel: string;
  parse: (message: string) => C | null;
  cache: { drop(change: C | null): void };
  logger: { warn(obj: object, msg?: string): void };
  /** What the warning calls the changes ("token changes", "API key changes"). */
  what: string;
  /** What the warning says is cached ("tokens", "keys"). */
  cached: string;
}): Promise<() => Promise<void>> {
  const { subscriber, channel, cache, logger } = options;
  const subscribe = () =>
    subscriber.subscribe(channel).catch((err: unknown) => logger.warn({ err }, `could not subscribe to ${options.what}; cached ${options.cached} live out their TTL`));
  subscriber.on('message', (from: string, message: string) => {
    if (from === channel) cache.drop(options.parse(message));
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
