'use strict';
// m1 with per-token rate limiting (Redis-counted, as in production, and in memory, as
// embedded) beside the same route without limiting and a bare Express + pg baseline,
// all in one run. The limiter's cost per request is the difference in server time per
// request (1/throughput) and in median latency against the unlimited route.
const express = require('express');
const pg = require('pg');
const { randomBytes } = require('node:crypto');
const { mkdtempSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Redis } = require('ioredis');
const { CONNECTIONS, DURATION, benchDatabase, listen, load, row } = require('./lib');

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const M1 = '/api/v3/m1?municipio_id=28079&date_from=2025-07-01&date_to=2025-07-07';

module.exports = async function rateLimitBench() {
  const db = await benchDatabase('ratelimit');
  const prefix = `bench-rl-${randomBytes(4).toString('hex')}`;
  const servers = [];
  const closers = [];
  try {
    // Baseline: bare Express answering one indexed pg query per request.
    const pool = new pg.Pool({ connectionString: db.url, max: 10 });
    // Dropping the bench database (WITH FORCE) may cut a connection still closing.
    pool.on('error', () => undefined);
    closers.push(() => pool.end());
    await pool.query('create table kv (k text primary key, v text)');
    await pool.query("insert into kv values ('k', 'v')");
    const bare = express();
    bare.get('/', async (_req, res) => res.json((await pool.query('select v from kv where k = $1', ['k'])).rows[0]));
    const bareServer = await listen(bare);
    servers.push(bareServer);

    const { loadConfig } = require('../services/wildfire/dist/config');
    const { startWildfire } = require('../services/wildfire/dist/runtime');
    const { createWildfireApp } = require('../services/wildfire/dist/app');
    const { createRateLimits } = require('../services/wildfire/dist/rate-limits/service');
    const { createUsageRepository } = require('../services/wildfire/dist/rate-limits/repository');
    const { createMemoryUsageCounter } = require('../services/wildfire/dist/rate-limits/usage-counter');
    const { createMetrics } = require('../packages/service-kit/dist');
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-'));
    // A budget no run can spend: every request is counted and metered, none refused.
    const config = loadConfig({
      WILDFIRE_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      WILDFIRE_DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      REDIS_URL,
      QUEUE_PREFIX: prefix,
      RATE_LIMIT_PREFIX: prefix,
      WILDFIRE_RATE_LIMIT_DATA: '1000000000',
    });
    const wf = await startWildfire(config, 'api');
    closers.push(() => wf.close());
    const weather = join(dataDir, 'weather.csv');
    writeFileSync(weather, ['municipio_id,date,temp,rh,ws,prec', ...Array.from({ length: 7 }, (_, i) => `28079,2025-07-0${i + 1},33,22,14,0`)].join('\n'));
    await wf.ingest.weather(weather);
    const { token } = await wf.tokens.create({ type: 'live', account: 'bench', scopes: ['risk:read'] });
    const auth = { authorization: `Bearer ${token}` };

    // The same runtime's services behind apps whose limits differ: none, and memory counters.
    const appWith = async (limits) => {
      const app = createWildfireApp({ config, logger: wf.logger, metrics: createMetrics('wildfire'), version: wf.version, database: wf.database, redis: wf.redis, tokens: wf.tokens, readings: wf.readings, ecosystem: wf.ecosystem, limits, jobs: wf.jobs.queue, clock: wf.clock });
      const server = await listen(app);
      servers.push(server);
      return `http://127.0.0.1:${server.address().port}`;
    };
    const unlimited = { perMinute: config.rateLimits.perMinute, admit: async () => ({ outcome: 'uncounted' }), windows: async () => null, usage: async () => null };
    const offUrl = await appWith(unlimited);
    const memoryLimits = createRateLimits({
      perMinute: config.rateLimits.perMinute,
      keyPrefix: prefix,
      usage: createMemoryUsageCounter({ repo: createUsageRepository(wf.database.db), flushMs: config.rateLimits.usageFlushMs, clock: wf.clock, logger: wf.logger }),
      clock: wf.clock,
    });
    // Flushed before the runtime closes its database (closers run in reverse).
    closers.push(() => memoryLimits.close());
    const memoryUrl = await appWith(memoryLimits);

    console.log(`\nRate limiting on m1 (live token, 7-day range): ${CONNECTIONS} connections, ${DURATION} s per path, Postgres at ${db.host}, Redis at ${new URL(REDIS_URL).host}\n`);
    const base = await load(`http://127.0.0.1:${bareServer.address().port}/`);
    row('baseline: bare Express + one pg query', base);
    // Warm-up (JIT, connection pools, the readings' pages), not reported.
    await load(`${offUrl}${M1}`, auth);
    await load(`${wf.url}${M1}`, auth);
    const off = await load(`${offUrl}${M1}`, auth);
    row('m1, rate limiting off', off, base);
    const memory = await load(`${memoryUrl}${M1}`, auth);
    row('m1, limited in memory + metered (embedded)', memory, base);
    const redis = await load(`${wf.url}${M1}`, auth);
    row('m1, limited in Redis + metered (production)', redis, base);
    const cost = (m) => `${((1 / m.rps - 1 / off.rps) * 1e6).toFixed(0)} µs server time/request, p50 ${m.p50 - off.p50 >= 0 ? '+' : ''}${m.p50 - off.p50} ms`;
    console.log(`limiter cost per request vs off: Redis ${cost(redis)}; memory ${cost(memory)}`);
  } finally {
    for (const s of servers) s.close();
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await db.drop();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
};
