import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { clearRedisPrefix, eventually, REDIS_URL, testConfig, uniquePrefix } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { createRedisUsageCounter } from './redis-usage-counter';
import { createUsageRepository, type UsageRepository } from './repository';
import { createMemoryUsageCounter, type UsageCounter } from './usage-counter';

const MONTH = '2026-05';
const NOW = new Date('2026-05-14T10:00:00Z');
const quiet = { warn: () => undefined };
/** Long enough that no periodic flush runs during a test unless it asks for one. */
const NEVER_MS = 3_600_000;

/** The usage counters against real Postgres (account_usage) and Redis. */
describe('usage counters and their flush', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let repo: UsageRepository;
  let redis: Redis;
  const prefix = uniquePrefix();
  const counters: UsageCounter[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_usage_counter');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'cli');
    repo = createUsageRepository(rt.database.db);
    redis = new Redis(REDIS_URL);
    await redis.ping(); // counting refuses while the connection is not ready, as the API must
  });

  // Every test's counters stop before the next test: a periodic flusher left running would
  // take the next test's pending counts from the shared dirty set.
  afterEach(async () => {
    await Promise.all(counters.splice(0).map((c) => c.close().catch(() => undefined)));
  });

  afterAll(async () => {
    redis?.disconnect();
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  const account = async (name: string) => (await rt.tokens.create({ account: name, type: 'live', scopes: ['risk:read'] })).record.accountId;
  function redisCounter(options: { repo?: Pick<UsageRepository, 'addRequests' | 'requests'>; flushMs?: number } = {}) {
    const counter = createRedisUsageCounter({ redis, keyPrefix: prefix, repo: options.repo ?? repo, flushMs: options.flushMs ?? NEVER_MS, clock: () => NOW, logger: quiet });
    counters.push(counter);
    return counter;
  }
  const countTimes = async (counter: UsageCounter, accountId: string, n: number, quota: number | null = null) => {
    const totals: (number | null)[] = [];
    for (let i = 0; i < n; i++) totals.push(await counter.count(accountId, MONTH, quota, NOW));
    return totals;
  };

  it('counts in Redis and reaches account_usage on flush, the month showing the same total before and after (never twice)', async () => {
    const id = await account('flush-once');
    const counter = redisCounter();
    expect(await countTimes(counter, id, 3)).toEqual([1, 2, 3]);
    expect(await repo.requests(id, MONTH)).toBe(0);
    expect(await counter.requests(id, MONTH, NOW)).toBe(3);
    expect(await counter.flush()).toBeGreaterThanOrEqual(3);
    expect(await repo.requests(id, MONTH)).toBe(3);
    expect(await counter.requests(id, MONTH, NOW)).toBe(3);
    await countTimes(counter, id, 2);
    await counter.flush();
    expect(await repo.requests(id, MONTH)).toBe(5);
    expect(await counter.requests(id, MONTH, NOW)).toBe(5);
  });

  it('continues from what account_usage holds when Redis has no counter for the month', async () => {
    const id = await account('seeded');
    await repo.addRequests([{ accountId: id, month: MONTH, requests: 40 }], NOW);
    const counter = redisCounter();
    expect(await counter.requests(id, MONTH, NOW)).toBe(40);
    expect(await countTimes(counter, id, 2, 41)).toEqual([41, null]);
  });

  it('flushes by itself every flush interval', async () => {
    const id = await account('periodic');
    const counter = redisCounter({ flushMs: 100 });
    await countTimes(counter, id, 4);
    expect(await eventually(async () => ((await repo.requests(id, MONTH)) === 4 ? true : undefined))).toBe(true);
  });

  it('never counts a request twice when two instances flush at once while requests keep coming', async () => {
    const id = await account('two-flushers');
    const a = redisCounter();
    const b = redisCounter();
    let counted = 0;
    for (let round = 0; round < 20; round++) {
      const burst = Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).count(id, MONTH, null, NOW));
      await Promise.all([...burst, a.flush(), b.flush(), a.flush(), b.flush()]);
      counted += burst.length;
    }
    await Promise.all([a.flush(), b.flush()]);
    expect(await repo.requests(id, MONTH)).toBe(counted);
    expect(await a.requests(id, MONTH, NOW)).toBe(counted);
  });

  it('loses nothing when an instance is killed without shutting down: another instance flushes its counts', async () => {
    const id = await account('killed-instance');
    const killed = redisCounter();
    counters.splice(counters.indexOf(killed), 1); // never flushed nor closed, as after a kill -9
    expect(await countTimes(killed, id, 3, 5)).toEqual([1, 2, 3]);
    const other = redisCounter();
    await other.flush();
    expect(await repo.requests(id, MONTH)).toBe(3);
    expect(await countTimes(other, id, 3, 5)).toEqual([4, 5, null]);
  });

  it('loses at most the batch a flusher had taken when it dies mid-flush, and the quota still holds exactly', async () => {
    const id = await account('crashed-flusher');
    // The process dies after taking the pending counts from Redis, before Postgres has them.
    const dying = redisCounter({ repo: { requests: repo.requests, addRequests: () => new Promise<void>(() => undefined) } });
    counters.splice(counters.indexOf(dying), 1); // a dead process is never closed
    await countTimes(dying, id, 5, 12);
    void dying.flush();
    await eventually(async () => ((await redis.exists(`${prefix}:usage:${id}:${MONTH}:pending`)) === 0 ? true : undefined));

    const survivor = redisCounter();
    const afterCrash = await countTimes(survivor, id, 10, 12);
    expect(afterCrash).toEqual([6, 7, 8, 9, 10, 11, 12, null, null, null]);
    await survivor.flush();
    // The 5 requests of the lost flush interval are missing from account_usage; nothing else is.
    expect(await repo.requests(id, MONTH)).toBe(7);
    expect(await survivor.requests(id, MONTH, NOW)).toBe(12);
  });

  it('gives the counts back to Redis when Postgres refuses the flush, and delivers them on the next one', async () => {
    const id = await account('pg-down');
    let down = true;
    const flaky = redisCounter({
      repo: { requests: repo.requests, addRequests: (deltas, at) => (down ? Promise.reject(new Error('database is down')) : repo.addRequests(deltas, at)) },
    });
    await countTimes(flaky, id, 3);
    await expect(flaky.flush()).rejects.toThrow('database is down');
    down = false;
    await flaky.flush();
    expect(await repo.requests(id, MONTH)).toBe(3);
  });

  describe('in memory (embedded, no Redis)', () => {
    const memoryCounter = (flushMs = NEVER_MS) => {
      const counter = createMemoryUsageCounter({ repo, flushMs, clock: () => NOW, logger: quiet });
      counters.push(counter);
      return counter;
    };

    it('counts from what account_usage holds, refuses past the quota, and flushes each request once', async () => {
      const id = await account('memory');
      await repo.addRequests([{ accountId: id, month: MONTH, requests: 2 }], NOW);
      const counter = memoryCounter();
      expect(await Promise.all(Array.from({ length: 5 }, () => counter.count(id, MONTH, 4, NOW)))).toEqual([3, 4, null, null, null]);
      expect(await counter.requests(id, MONTH, NOW)).toBe(4);
      await counter.flush();
      await counter.flush();
      expect(await repo.requests(id, MONTH)).toBe(4);
    });

    it('flushes at close, and a process killed without closing loses only what came after its last flush', async () => {
      const id = await account('memory-crash');
      const closed = memoryCounter();
      await countTimes(closed, id, 3);
      await closed.close();
      expect(await repo.requests(id, MONTH)).toBe(3);

      const killed = memoryCounter();
      await countTimes(killed, id, 4);
      await killed.flush();
      await countTimes(killed, id, 2); // served, then the process dies before its next flush
      const restarted = memoryCounter();
      expect(await restarted.requests(id, MONTH, NOW)).toBe(7);
      expect(await repo.requests(id, MONTH)).toBe(7);
    });
  });
});
