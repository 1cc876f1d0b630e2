'use strict';
// The HTTP frame and token authentication of the services, beside bare Express + pg; and the
// frame alone (security headers, request id, access log, metrics, JSON body parser, 404 and
// error handlers) around a route that does no work, beside bare Express with the same route,
// with the access log off (as the other rows) and on (`info`, written to /dev/null).
const express = require('express');
const pino = require('pino');
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

    const { createHttpApp, createLogger, createMetrics } = require('../packages/service-kit/dist');
    const { wildfireEnvelope } = require('../packages/errors/dist');
    const noWork = (_req, res) => void res.json({ ok: true });
    const bareNoWork = express();
    bareNoWork.get('/', noWork);
    const framed = async (level) => {
      const destination = pino.destination({ dest: '/dev/null', sync: true });
      closers.push(async () => destination.destroy());
      const logger = createLogger({ service: 'bench', level, destination });
      const http = createHttpApp({ logger, metrics: createMetrics('bench'), envelope: wildfireEnvelope, jsonLimit: '1mb', trustedProxies: [] });
      http.app.get('/', noWork);
      const server = await listen(http.finish());
      servers.push(server);
      return `http://127.0.0.1:${server.address().port}/`;
    };
    const bareNoWorkServer = await listen(bareNoWork);
    servers.push(bareNoWorkServer);
    const framedSilent = await framed('silent');
    const framedInfo = await framed('info');

    console.log(`\nHTTP frame: ${CONNECTIONS} connections, ${DURATION} s per path, Postgres at ${db.host}\n`);
    const bareFrame = await load(`http://127.0.0.1:${bareNoWorkServer.address().port}/`);
    row('baseline: bare Express, route without work', bareFrame);
    row('service-kit frame, log level silent', await load(framedSilent), bareFrame);
    row('service-kit frame, access log at info', await load(framedInfo), bareFrame);
    const base = await load(`http://127.0.0.1:${bareServer.address().port}/`);
    row('baseline: bare Express + one pg query', base);
    row('wildfire GET /api/v1/me (token lookup)', await load(`${wf.url}/api/v1/me`, { authorization: `Bearer ${token}` }), base);
  } finally {
    for (const s of servers) s.close();
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await db.drop();
  }
};
