import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection for API use (rate limits, queue producers): commands fail
 * fast while disconnected instead of piling up, so a Redis outage surfaces as a
 * clear 503 rather than hung requests.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    connectTimeout: 5_000,
    commandTimeout: 5_000,
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
