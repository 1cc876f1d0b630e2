import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRedis } from './redis';
import { TEST_REDIS_URL } from './testing/helpers';

/** Counts the writes the client's socket makes while `work` runs. */
async function writesDuring(redis: Redis, work: () => Promise<unknown>): Promise<number> {
  const stream = (redis as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
  const original = stream.write;
  let writes = 0;
  stream.write = function write(this: unknown, ...args: unknown[]) {
    writes++;
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    stream.write = original;
  }
  return writes;
}

describe('the API Redis connection', () => {
  let redis: Redis;
  const prefix = `redis-test:${randomUUID()}`;

  beforeAll(async () => {
    redis = createRedis(TEST_REDIS_URL);
    await redis.ping();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('sends the commands issued together in one write, each with its own reply', async () => {
    const keys = Array.from({ length: 20 }, (_, i) => `${prefix}:n${i}`);
    let replies: number[] = [];
    const writes = await writesDuring(redis, async () => {
      replies = await Promise.all(keys.map((key, i) => redis.incrby(key, i + 1)));
    });
    expect(replies).toEqual(keys.map((_, i) => i + 1));
    expect(writes).toBe(1);
  });

  it('keeps a failing command to itself: the others in the same write succeed', async () => {
    await redis.set(`${prefix}:text`, 'not a number');
    const results = await Promise.allSettled([redis.incr(`${prefix}:a`), redis.incr(`${prefix}:text`), redis.incr(`${prefix}:b`)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(/not an integer/);
  });

  it('sends commands issued one after another as they come', async () => {
    const writes = await writesDuring(redis, async () => {
      await redis.incr(`${prefix}:seq`);
      await redis.incr(`${prefix}:seq`);
    });
    expect(writes).toBe(2);
    expect(await redis.get(`${prefix}:seq`)).toBe('2');
  });
});
