'use strict';
// Shared by the bench/*.bench.js files: load generation, result rows, a throwaway database.
const autocannon = require('autocannon');
const pg = require('pg');
const { once } = require('node:events');

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.BENCH_SECONDS || 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 16);

async function admin(sql) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function load(url, headers = {}) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

function row(name, m, base) {
  const ratio = base ? ` ${(m.rps / base.rps).toFixed(2)}x of baseline` : '';
  console.log(`${name.padEnd(46)} ${m.rps.toFixed(0).padStart(7)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(4)} ms${ratio}`);
}

async function listen(app) {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}


/** A fresh database on the real Postgres for one bench; `drop()` removes it. */
async function benchDatabase(tag) {
  const name = `bench_${tag}_${Date.now()}`;
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), host: url.host, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** The wall times (ms, sorted) of `runs` sequential calls of `fn`; `warmup` calls first are not counted. */
async function sortedTimesMs(fn, runs, { warmup = 0 } = {}) {
  const { performance } = require('node:perf_hooks');
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

/** The median wall time of `runs` sequential calls of `fn`, in ms; `warmup` calls first are not counted. */
async function medianMs(fn, runs, options) {
  const times = await sortedTimesMs(fn, runs, options);
  return times[Math.floor(times.length / 2)];
}

module.exports = { DURATION, CONNECTIONS, load, row, listen, benchDatabase, medianMs, sortedTimesMs };
