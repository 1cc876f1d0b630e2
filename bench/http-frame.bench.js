'use strict';
// The HTTP frame and token authentication of the services, beside bare Express + pg.
const express = require('express');
const pg = require('pg');
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { CONNECTIONS, DURATION, benchDatabase, listen, load, row } = require('./lib');

module.exports = async function httpFrameBench() {
  const db = await benchDatabase('http');
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
    const wf = await startWildfire(
      loadConfig({ WILDFIRE_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WILDFIRE_DATABASE_URL: db.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-')) }),
      'all',
    );
    closers.push(() => wf.close());
    const { token } = await wf.tokens.create({ type: 'test', account: 'bench', scopes: ['risk:read'] });

    console.log(`\nHTTP frame: ${CONNECTIONS} connections, ${DURATION} s per path, Postgres at ${db.host}\n`);
    const base = await load(`http://127.0.0.1:${bareServer.address().port}/`);
    row('baseline: bare Express + one pg query', base);
    row('wildfire GET /api/v1/me (token lookup)', await load(`${wf.url}/api/v1/me`, { authorization: `Bearer ${token}` }), base);
  } finally {
    for (const s of servers) s.close();
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await db.drop();
  }
};
