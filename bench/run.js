#!/usr/bin/env node
'use strict';
// `npm run bench`: throughput and latency of the main paths, each printed beside a
// baseline measured in the same run on the same machine, as a ratio. Uses the compiled
// services (npm run build) against the real Postgres at 127.0.0.1:5432.
const autocannon = require('autocannon');
const express = require('express');
const pg = require('pg');
const { once } = require('node:events');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

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

async function main() {
  const dbName = `bench_${Date.now()}`;
  await admin(`CREATE DATABASE "${dbName}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const servers = [];
  const closers = [];
  try {
    // Baseline: bare Express answering one indexed pg query per request.
    const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
    closers.push(() => pool.end());
    await pool.query('create table kv (k text primary key, v text)');
    await pool.query("insert into kv values ('k', 'v')");
    const bare = express();
    bare.get('/', async (_req, res) => res.json((await pool.query('select v from kv where k = $1', ['k'])).rows[0]));
    const bareServer = await listen(bare);
    servers.push(bareServer);

    const { loadConfig } = require('../services/wildfire/dist/config');
    const { startWildfire } = require('../services/wildfire/dist/runtime');
    const wf = await startWildfire(
      loadConfig({ WILDFIRE_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WILDFIRE_DATABASE_URL: url.toString(), DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')) }),
      'all',
    );
    closers.push(() => wf.close());
    const { token } = await wf.tokens.create({ type: 'test', account: 'bench', scopes: ['risk:read'] });

    console.log(`\n${CONNECTIONS} connections, ${DURATION} s per path, Postgres at ${url.host}\n`);
    const base = await load(`http://127.0.0.1:${bareServer.address().port}/`);
    row('baseline: bare Express + one pg query', base);
    row('wildfire GET /api/v1/me (token lookup)', await load(`${wf.url}/api/v1/me`, { authorization: `Bearer ${token}` }), base);
  } finally {
    for (const s of servers) s.close();
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
