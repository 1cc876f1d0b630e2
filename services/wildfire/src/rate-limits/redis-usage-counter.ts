import type { Redis } from 'ioredis';
import { FIXED_WINDOW_TAKE_LUA, RateLimiterUnavailableError, windowDecision, type RateLimitDecision, type RateLimiter } from '@firma-riesgo/auth';
import { secondsToNextMonthInSpain } from './month';
import type { UsageDelta } from './repository';
import { flushPeriodically, type UsageCounter, type UsageCounterOptions } from './usage-counter';

/**
 * Per account and month, two keys: `…:total` (flushed plus pending: what the quota is
 * checked against and `/me` shows) and `…:pending` (counted, not yet in Postgres). A set
 * `…:usage:dirty` names the account-months with something pending.
 */
// KEYS: total, pending, dirty. ARGV: quota (-1: none), ttl seconds, dirty member.
// -1: the month's total is not in Redis yet (seed it from Postgres, then retry); -2: quota spent.
const COUNT = `
local total = redis.call('GET', KEYS[1])
if not total then return -1 end
local quota = tonumber(ARGV[1])
if quota >= 0 and tonumber(total) >= quota then return -2 end
local n = redis.call('INCR', KEYS[1])
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[3])
return n`;

// The request's whole admission in one round trip: a point from the token's window (the
// limiter's own key and arithmetic) and, when within the limit, COUNT. KEYS: window, total,
// pending, dirty. ARGV: window seconds, limit, quota, ttl, member. Returns {consumed,
// ttl ms, COUNT's answer or 0 when over the limit}.
const ADMIT = `${FIXED_WINDOW_TAKE_LUA}
if consumed > tonumber(ARGV[2]) then return {consumed, ttl, 0} end
local total = redis.call('GET', KEYS[2])
if not total then return {consumed, ttl, -1} end
local quota = tonumber(ARGV[3])
if quota >= 0 and tonumber(total) >= quota then return {consumed, ttl, -2} end
local n = redis.call('INCR', KEYS[2])
redis.call('INCR', KEYS[3])
redis.call('EXPIRE', KEYS[3], ARGV[4])
redis.call('SADD', KEYS[4], ARGV[5])
return {consumed, ttl, n}`;

// KEYS: total, pending. ARGV: requests in Postgres, ttl seconds. A pending count left
// from before is not in Postgres yet, so it belongs in the total too.
const SEED = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SET', KEYS[1], tonumber(ARGV[1]) + tonumber(redis.call('GET', KEYS[2]) or '0'), 'EX', ARGV[2])
end
return redis.call('GET', KEYS[1])`;

// KEYS: dirty. ARGV: batch size, key prefix. Takes account-months off the dirty set and
// their pending counts with them, in one atomic step: a concurrent flusher (another
// instance) gets other members or nothing, so no count is ever handed out twice.
const TAKE = `
local members = redis.call('SPOP', KEYS[1], ARGV[1])
local out = {}
for _, m in ipairs(members) do
  local d = redis.call('GETDEL', ARGV[2] .. m .. ':pending')
  if d then
    table.insert(out, m)
    table.insert(out, d)
  end
end
return out`;

// KEYS: dirty. ARGV: key prefix, ttl seconds, then member, count pairs: a flush whose
// Postgres write failed gives its counts back.
const GIVE_BACK = `
for i = 3, #ARGV, 2 do
  redis.call('INCRBY', ARGV[1] .. ARGV[i] .. ':pending', ARGV[i + 1])
  redis.call('EXPIRE', ARGV[1] .. ARGV[i] .. ':pending', ARGV[2])
  redis.call('SADD', KEYS[1], ARGV[i])
end
return 1`;

/**
 * Takes a point from `limiter`'s window of `key` and, when within the limit, counts the
 * request like `count`, in one round trip; `total` is null when over the limit or the quota.
 */
export type AdmitInOneCall = (
  limiter: Pick<RateLimiter, 'storeKey' | 'limit' | 'windowSeconds'>,
  key: string,
  accountId: string,
  month: string,
  quota: number | null,
  now: Date,
) => Promise<{ decision: RateLimitDecision; total: number | null }>;

const FLUSH_BATCH = 500;
/** The month's keys outlive the month by a day, so late flushes and `/me` still find them. */
const KEY_GRACE_SECONDS = 86_400;

interface UsageScripts {
  wfAdmit(window: string, total: string, pending: string, dirty: string, seconds: number, limit: number, quota: number, ttl: number, member: string): Promise<[number, number, number]>;
  wfUsageCount(total: string, pending: string, dirty: string, quota: number, ttl: number, member: string): Promise<number>;
  wfUsageSeed(total: string, pending: string, flushed: number, ttl: number): Promise<string>;
  wfUsageTake(dirty: string, batch: number, prefix: string): Promise<string[]>;
  wfUsageGiveBack(dirty: string, prefix: string, ttl: number, ...pairs: (string | number)[]): Promise<number>;
}

function scripted(redis: Redis): Redis & UsageScripts {
  const r = redis as Redis & Partial<UsageScripts>;
  if (!r.wfUsageCount) {
    redis.defineCommand('wfAdmit', { numberOfKeys: 4, lua: ADMIT });
    redis.defineCommand('wfUsageCount', { numberOfKeys: 3, lua: COUNT });
    redis.defineCommand('wfUsageSeed', { numberOfKeys: 2, lua: SEED });
    redis.defineCommand('wfUsageTake', { numberOfKeys: 1, lua: TAKE });
    redis.defineCommand('wfUsageGiveBack', { numberOfKeys: 1, lua: GIVE_BACK });
  }
  return redis as Redis & UsageScripts;
}

/**
 * The counters in Redis, shared by every instance: one script call per admitted request.
 * A crashed instance loses nothing (its counts wait in Redis for any instance's flush);
 * a flusher that dies between taking counts and writing them loses at most that batch,
 * one flush interval of usage, while the totals in Redis, and so the quotas, keep them.
 */
export function createRedisUsageCounter(options: UsageCounterOptions & { redis: Redis; keyPrefix: string }): UsageCounter & { admit: AdmitInOneCall } {
  const redis = scripted(options.redis);
  const { repo, clock } = options;
  const prefix = `${options.keyPrefix}:usage:`;
  const dirty = `${prefix}dirty`;
  const keys = (member: string) => [`${prefix}${member}:total`, `${prefix}${member}:pending`] as const;
  const ttl = (now: Date) => secondsToNextMonthInSpain(now) + KEY_GRACE_SECONDS;

  /** Commands wait for no reconnection: with Redis away the request is refused at once (503), as the limiter does. */
  async function ask<T>(run: () => Promise<T>): Promise<T> {
    if (redis.status !== 'ready') throw new RateLimiterUnavailableError();
    try {
      return await run();
    } catch (err) {
      throw new RateLimiterUnavailableError({ cause: err });
    }
  }

  async function flush(): Promise<number> {
    let moved = 0;
    for (;;) {
      const taken = await redis.wfUsageTake(dirty, FLUSH_BATCH, prefix);
      if (taken.length === 0) return moved;
      const deltas: UsageDelta[] = [];
      for (let i = 0; i < taken.length; i += 2) {
        const member = taken[i]!;
        const cut = member.lastIndexOf(':');
        deltas.push({ accountId: member.slice(0, cut), month: member.slice(cut + 1), requests: Number(taken[i + 1]) });
      }
      try {
        await repo.addRequests(deltas, clock());
      } catch (err) {
        await redis.wfUsageGiveBack(dirty, prefix, ttl(clock()), ...taken);
        throw err;
      }
      moved += deltas.reduce((sum, d) => sum + d.requests, 0);
      if (taken.length < 2 * FLUSH_BATCH) return moved;
    }
  }

  /** COUNT's answer to a total (-1: not in Redis) once seeded from Postgres: the new total, or null when the quota is spent. */
  async function afterSeeding(answer: number, accountId: string, month: string, quota: number | null, now: Date): Promise<number | null> {
    const member = `${accountId}:${month}`;
    const [total, pending] = keys(member);
    if (answer === -1) {
      const flushed = await repo.requests(accountId, month);
      await ask(() => redis.wfUsageSeed(total, pending, flushed, ttl(now)));
      answer = await ask(() => redis.wfUsageCount(total, pending, dirty, quota ?? -1, ttl(now), member));
      if (answer === -1) throw new RateLimiterUnavailableError();
    }
    return answer === -2 ? null : answer;
  }

  const periodic = flushPeriodically(flush, options.flushMs, options.logger);
  return {
    async count(accountId, month, quota, now) {
      const member = `${accountId}:${month}`;
      const [total, pending] = keys(member);
      return afterSeeding(await ask(() => redis.wfUsageCount(total, pending, dirty, quota ?? -1, ttl(now), member)), accountId, month, quota, now);
    },

    async admit(limiter, key, accountId, month, quota, now) {
      const member = `${accountId}:${month}`;
      const [total, pending] = keys(member);
      const [consumed, msLeft, answer] = await ask(() =>
        redis.wfAdmit(limiter.storeKey(key), total, pending, dirty, limiter.windowSeconds, limiter.limit, quota ?? -1, ttl(now), member),
      );
      const allowed = consumed <= limiter.limit;
      const decision = windowDecision(consumed, msLeft, allowed, limiter.limit);
      return { decision, total: allowed ? await afterSeeding(answer, accountId, month, quota, now) : null };
    },
    async requests(accountId, month, now) {
      const [total, pending] = keys(`${accountId}:${month}`);
      const counted = await ask(() => redis.get(total));
      if (counted !== null) return Number(counted);
      // Not in Redis: seeding it here keeps /me and the next count on the same figure.
      const flushed = await repo.requests(accountId, month);
      return Number(await ask(() => redis.wfUsageSeed(total, pending, flushed, ttl(now))));
    },
    flush,
    close: () => periodic.stop(),
  };
}
