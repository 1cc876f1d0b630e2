import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection for API use (rate limits, queue producers): commands fail
 * fast while disconnected instead of piling up, so a Redis outage surfaces as a
 * clear 503 rather than hung requests.
 *
 * Auto-pipelining: the commands issued in one tick (the rate-limit script call of every
 * request that arrived together) leave in one write and their replies come back in one
 * read, instead of a write and a read each. Every command still gets its own reply,
 * error and timeout; ioredis never pipelines the commands that change the connection's
 * state (SUBSCRIBE, SELECT, MULTI...). Measured on wildfire's m1 path (issue 17).
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    connectTimeout: 5_000,
    commandTimeout: 5_000,
    enableAutoPipelining: true,
    ...options,
  });
}

export async function pingRedis(redis: Redis | undefined): Promise<'ok' | 'down' | 'disabled'> {
  if (!redis) return 'disabled';
  try {
    return (await redis.ping()) === 'PONG' ? 'ok' : 'down';
  } catch {
    return 'down';
  }
}
