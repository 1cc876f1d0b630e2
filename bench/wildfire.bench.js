'use strict';
// The wildfire data paths, each beside a baseline measured in the same run against the same
// Postgres:
//  - weather ingestion: one year of noon weather for 1,000 municipalities (a generated CSV)
//    through the real `ingest weather` (validation, COPY to staging, FWI per municipality,
//    upsert) against a raw COPY of the same file into a bare table;
//  - GET /api/v3/m1 latest reading with a live token (authentication, rate limit, one query)
//    against bare Express answering the same latest-reading query.
const express = require('express');
const pg = require('pg');
const { from: copyFrom } = require('pg-copy-streams');
const { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } = require('node:fs');
const { once } = require('node:events');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { pipeline } = require('node:stream/promises');
const { CONNECTIONS, DURATION, benchDatabase, listen, load, row } = require('./lib');

const MUNICIPALITIES = 1000;

/** Every day of `year` as YYYY-MM-DD. */
function daysOf(year) {
  const days = [];
  for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** Writes the weather CSV: the synthetic climate of each municipality, so the FWI sees realistic series. */
async function writeWeatherCsv(path, codes, days) {
  const { yearOfWeather } = require('../services/wildfire/dist/synthetic/climate-model');
  const { provinceOf } = require('../services/wildfire/dist/municipalities/provinces');
  const out = createWriteStream(path);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('municipio_id,date,temp,rh,ws,prec\n');
  for (const code of codes) {
    const weather = yearOfWeather(code, provinceOf(code), days);
    await write(weather.map((w, i) => `${code},${days[i]},${w.temp},${w.rh},${w.ws},${w.prec}\n`).join(''));
  }
  out.end();
  await once(out, 'finish');
}

function rateRow(name, rows, unit, seconds, base) {
  const rate = rows / seconds;
  const ratio = base ? ` ${(rate / base).toFixed(2)}x of baseline` : '';
  console.log(`${name.padEnd(46)} ${rate.toFixed(0).padStart(7)} ${unit.padEnd(10)} ${seconds.toFixed(2).padStart(6)} s${ratio}`);
  return rate;
}

async function timed(work) {
  const start = process.hrtime.bigint();
  const result = await work();
  return { result, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

module.exports = async function wildfireBench() {
  const db = await benchDatabase('wildfire');
  const dir = mkdtempSync(join(tmpdir(), 'bench-wf-'));
  const servers = [];
  const closers = [];
  try {
    const { loadConfig } = require('../services/wildfire/dist/config');
    const { startWildfire } = require('../services/wildfire/dist/runtime');
    const { registryMunicipalities } = require('../services/wildfire/dist/municipalities/registry');
    const wf = await startWildfire(
      loadConfig({
        WILDFIRE_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WILDFIRE_DATABASE_URL: db.url,
        DATA_DIR: join(dir, 'data'),
        // The bench measures the request path, not the 429s a real budget would give it.
        WILDFIRE_RATE_LIMIT_DATA: '1000000000',
      }),
      'all',
    );
    closers.push(() => wf.close());

    // 1,000 municipalities spread over every province: every 8th code of the registry.
    const all = registryMunicipalities().map((m) => m.ineCode);
    const codes = all.filter((_, i) => i % Math.floor(all.length / MUNICIPALITIES) === 0).slice(0, MUNICIPALITIES);
    const year = new Date().getUTCFullYear() - 1;
    const days = daysOf(year);
    const csv = join(dir, 'weather.csv');
    await writeWeatherCsv(csv, codes, days);
    const rows = codes.length * days.length;

    console.log(
      `\nWildfire ingestion: ${rows.toLocaleString('en')} weather rows (${codes.length} municipalities x ${days.length} days of ${year}, ` +
        `${(statSync(csv).size / 1e6).toFixed(1)} MB CSV), Postgres at ${db.host}\n`,
    );
    const pool = new pg.Pool({ connectionString: db.url, max: 10 });
    // pool.end() resolves before its clients have disconnected, so dropping the database
    // right after can terminate one; that must not crash the run.
    pool.on('error', () => undefined);
    closers.push(() => pool.end());
    await pool.query('CREATE TABLE weather_raw (municipio_id text, date date, temp float8, rh float8, ws float8, prec float8)');
    const copy = await timed(async () => {
      const client = await pool.connect();
      try {
        await pipeline(createReadStream(csv), client.query(copyFrom('COPY weather_raw FROM STDIN WITH (FORMAT csv, HEADER true)')));
      } finally {
        client.release();
      }
    });
    const copied = Number((await pool.query('SELECT count(*) AS n FROM weather_raw')).rows[0].n);
    if (copied !== rows) throw new Error(`baseline COPY loaded ${copied} rows, expected ${rows}`);
    const base = rateRow('baseline: raw COPY into a bare table', rows, 'rows/s', copy.seconds);
    const ingest = await timed(() => wf.ingest.weather(csv));
    if (ingest.result.inserted !== rows) throw new Error(`ingest weather inserted ${ingest.result.inserted} readings, expected ${rows}`);
    rateRow('wildfire ingest weather (validate, FWI, upsert)', rows, 'readings/s', ingest.seconds, base);

    // Baseline: bare Express answering the latest-reading query of one municipality.
    const code = codes[codes.length >> 1];
    const bare = express();
    bare.get('/', async (_req, res) =>
      res.json((await pool.query('SELECT * FROM readings WHERE municipio_id = $1 ORDER BY date DESC LIMIT 1', [code])).rows[0]),
    );
    const bareServer = await listen(bare);
    servers.push(bareServer);
    const { token } = await wf.tokens.create({ type: 'live', account: 'bench', scopes: ['risk:read'] });

    console.log(`\nWildfire m1 latest reading: ${CONNECTIONS} connections, ${DURATION} s per path, municipality ${code}\n`);
    const baseHttp = await load(`http://127.0.0.1:${bareServer.address().port}/`);
    row('baseline: bare Express + one pg query', baseHttp);
    row('wildfire GET /api/v3/m1 latest (live token)', await load(`${wf.url}/api/v3/m1?municipio_id=${code}`, { authorization: `Bearer ${token}` }), baseHttp);
  } finally {
    for (const s of servers) s.close();
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
};
