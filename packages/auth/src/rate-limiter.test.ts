import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import Redis from 'ioredis';
import { createRateLimiter, FIXED_WINDOW_TAKE_LUA, RateLimiterUnavailableError, windowDecision } from './rate-limiter';

const runId = `test:auth:${randomBytes(6).toString('hex')}`;

describe('memory rate limiter', () => {
  it('allows exactly the limit, counting down remaining', async () => {
    const limiter = createRateLimiter({ points: 3, durationSeconds: 60, keyPrefix: 'mem' });
    const decisions = [await limiter.consume('k'), await limiter.consume('k'), await limiter.consume('k')];
    expect(decisions.map((d) => [d.allowed, d.remaining, d.retryAfterSeconds])).toEqual([
      [true, 2, 0],
      [true, 1, 0],
      [true, 0, 0],
    ]);
  });

  it('refuses the request after the limit with remaining 0 and a retry delay of at least a second', async () => {
    const limiter = createRateLimiter({ points: 2, durationSeconds: 60, keyPrefix: 'mem' });
    await limiter.consume('k');
    await limiter.consume('k');
    const refused = await limiter.consume('k');
    expect(refused).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
  });

  it('reports the end of the window as whole epoch seconds', async () => {
    const before = Date.now() / 1000;
    const decision = await createRateLimiter({ points: 1, durationSeconds: 30, keyPrefix: 'mem' }).consume('k');
    expect(Number.isInteger(decision.resetAt)).toBe(true);
    expect(decision.resetAt).toBeGreaterThanOrEqual(Math.floor(before + 29));
    expect(decision.resetAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000 + 30));
  });

  it('keeps separate budgets per key', async () => {
    const limiter = createRateLimiter({ points: 1, durationSeconds: 60, keyPrefix: 'mem' });
    expect((await limiter.consume('a')).allowed).toBe(true);
    expect((await limiter.consume('b')).allowed).toBe(true);
    expect((await limiter.consume('a')).allowed).toBe(false);
  });

  it('takes several points at once', async () => {
    const limiter = createRateLimiter({ points: 5, durationSeconds: 60, keyPrefix: 'mem' });
    expect(await limiter.consume('k', 4)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limiter.consume('k', 2)).allowed).toBe(false);
  });

  it('peeks at a window without taking from it; no open window means the full budget and no reset', async () => {
    const limiter = createRateLimiter({ points: 5, durationSeconds: 60, keyPrefix: 'mem' });
    expect(await limiter.peek('k')).toEqual({ limit: 5, remaining: 5, resetAt: null });
    const taken = await limiter.consume('k', 2);
    expect(await limiter.peek('k')).toEqual({ limit: 5, remaining: 3, resetAt: taken.resetAt });
    expect(await limiter.peek('k')).toMatchObject({ remaining: 3 });
  });

  it('exposes its limit and window', () => {
    const limiter = createRateLimiter({ points: 7, durationSeconds: 15, keyPrefix: 'mem' });
    expect([limiter.limit, limiter.windowSeconds]).toEqual([7, 15]);
  });

  it('rejects points that are not positive integers', async () => {
    const limiter = createRateLimiter({ points: 5, durationSeconds: 60, keyPrefix: 'mem' });
    await expect(limiter.consume('k', 0)).rejects.toThrow(RangeError);
    await expect(limiter.consume('k', 1.5)).rejects.toThrow(RangeError);
    expect(() => createRateLimiter({ points: 0, durationSeconds: 60, keyPrefix: 'mem' })).toThrow(RangeError);
    expect(() => createRateLimiter({ points: 1, durationSeconds: 0.5, keyPrefix: 'mem' })).toThrow(RangeError);
  });
});

describe('redis rate limiter', () => {
  const clients: Redis[] = [];
  const connect = (): Redis => {
    const client = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
    clients.push(client);
    return client;
  };

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit()));
  });

  it('shares one budget between limiters on the same Redis and prefix', async () => {
    const [redisA, redisB] = [connect(), connect()];
    await Promise.all([once(redisA, 'ready'), once(redisB, 'ready')]);
    const options = { points: 3, durationSeconds: 60, keyPrefix: `${runId}:shared` };
    const a = createRateLimiter({ ...options, redis: redisA });
    const b = createRateLimiter({ ...options, redis: redisB });

    expect(await a.consume('tenant-1')).toMatchObject({ allowed: true, remaining: 2 });
    expect(await b.consume('tenant-1')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await a.consume('tenant-1')).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await b.consume('tenant-1');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 3 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('keeps budgets of different prefixes apart', async () => {
    const redis = connect();
    await once(redis, 'ready');
    const first = createRateLimiter({ points: 1, durationSeconds: 60, keyPrefix: `${runId}:one`, redis });
    const second = createRateLimiter({ points: 1, durationSeconds: 60, keyPrefix: `${runId}:two`, redis });
    expect((await first.consume('k')).allowed).toBe(true);
    expect((await second.consume('k')).allowed).toBe(true);
    expect((await first.consume('k')).allowed).toBe(false);
  });

  it('connects a lazyConnect client itself, since it never sends it a command while not ready', async () => {
    const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 1 });
    clients.push(redis);
    const limiter = createRateLimiter({ points: 1, durationSeconds: 60, keyPrefix: `${runId}:lazy`, redis });
    await once(redis, 'ready');
    expect((await limiter.consume('k')).allowed).toBe(true);
  });

  it('shares its window with a script built on FIXED_WINDOW_TAKE_LUA (one budget for both), and decides alike', async () => {
    const redis = connect();
    await once(redis, 'ready');
    const limiter = createRateLimiter({ points: 3, durationSeconds: 60, keyPrefix: `${runId}:lua`, redis });
    const take = async () => {
      const [consumed, ttl] = (await redis.eval(`${FIXED_WINDOW_TAKE_LUA}\nreturn {consumed, ttl}`, 1, limiter.storeKey('k'), 60)) as [number, number];
      return windowDecision(consumed, ttl, consumed <= limiter.limit, limiter.limit);
    };
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 2 });
    expect(await take()).toMatchObject({ allowed: true, remaining: 1, retryAfterSeconds: 0 });
    expect(await limiter.consume('k')).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await take();
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 3 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await limiter.consume('k')).allowed).toBe(false);
    expect(await limiter.peek('k')).toMatchObject({ remaining: 0 });
  });

  it('fails with RateLimiterUnavailableError when Redis answers with an error', async () => {
    const redis = connect();
    await once(redis, 'ready');
    const keyPrefix = `${runId}:corrupt`;
    await redis.set(`${keyPrefix}:k`, 'not a number', 'EX', 60);
    const limiter = createRateLimiter({ points: 5, durationSeconds: 60, keyPrefix, redis });
    await expect(limiter.consume('k')).rejects.toBeInstanceOf(RateLimiterUnavailableError);
  });
});

describe('redis rate limiter with Redis down', () => {
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis({
      host: '127.0.0.1',
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
    });
    // ioredis prints unhandled 'error' events; the refused connection is expected here.
    redis.on('error', () => undefined);
  });

  afterAll(() => {
    redis.disconnect();
  });

  it('fails closed with RateLimiterUnavailableError instead of allowing or hanging', async () => {
    const limiter = createRateLimiter({ points: 5, durationSeconds: 60, keyPrefix: `${runId}:down`, redis });
    const failure = await limiter.consume('k').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RateLimiterUnavailableError);
    expect((failure as Error).cause).toBeInstanceOf(Error);
  });

  it('keeps failing on later requests rather than falling back to memory', async () => {
    const limiter = createRateLimiter({ points: 5, durationSeconds: 60, keyPrefix: `${runId}:down`, redis });
    for (let i = 0; i < 3; i++) {
      await expect(limiter.consume('k')).rejects.toBeInstanceOf(RateLimiterUnavailableError);
    }
  });
});

describe('redis rate limiter with Redis down and a client that would queue forever', () => {
  let redis: Redis;

  beforeAll(() => {
    // ioredis defaults plus maxRetriesPerRequest: null: commands wait in the offline
    // queue until Redis comes back, however long that takes.
    redis = new Redis({ host: '127.0.0.1', port: 1, maxRetriesPerRequest: null });
    redis.on('error', () => undefined);
  });

  afterAll(() => {
    redis.disconnect();
  });

  it('still fails at once with RateLimiterUnavailableError', async () => {
    const limiter = createRateLimiter({ points: 5, durationSeconds: 60, keyPrefix: `${runId}:queued`, redis });
    await expect(limiter.consume('k')).rejects.toBeInstanceOf(RateLimiterUnavailableError);
  });
});
