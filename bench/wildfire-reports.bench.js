'use strict';
// The wildfire monthly report (POST /api/v1/report, format pdf) beside a baseline made in the
// same run: seconds per sealed PDF report, N sequential requests after a warm-up, each the
// whole path (HTTP, row, BullMQ job on Redis, readings and history from Postgres, decisions
// and ecosystem, layout and chart on a worker thread, PAdES seal, atomic store, answer),
// against a bare pdf-lib document of the same page count (A4 pages with a line of text each)
// made in this process.
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { benchDatabase, sortedTimesMs } = require('./lib');

const RUNS = Number(process.env.BENCH_REPORTS || 10);
const WARMUP = 2;
const MUNICIPIO = '28079';

/** Median and 90th percentile (nearest rank) of sorted times, in seconds. */
function summary(sorted) {
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] / 1000;
  return { median: sorted[Math.floor(sorted.length / 2)] / 1000, p90: at(0.9) };
}

function reportRow(name, s, base) {
  const ratio = base ? ` ${(s.median / base.median).toFixed(1)}x the baseline's time` : '';
  console.log(`${name.padEnd(46)} median ${s.median.toFixed(3).padStart(7)} s  p90 ${s.p90.toFixed(3).padStart(7)} s${ratio}`);
}

/** Every day from 2015 to the end of last year: the report's month and its history. */
function weatherCsv(lastYear) {
  const { yearOfWeather } = require('../services/wildfire/dist/synthetic/climate-model');
  const { provinceOf } = require('../services/wildfire/dist/municipalities/provinces');
  const lines = ['municipio_id,date,temp,rh,ws,prec'];
  for (let year = 2015; year <= lastYear; year++) {
    const days = [];
    for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
    yearOfWeather(MUNICIPIO, provinceOf(MUNICIPIO), days).forEach((w, i) => lines.push(`${MUNICIPIO},${days[i]},${w.temp},${w.rh},${w.ws},${w.prec}`));
  }
  return lines.join('\n');
}

module.exports = async function wildfireReportsBench() {
  const db = await benchDatabase('wildfire_reports');
  const dir = mkdtempSync(join(tmpdir(), 'bench-wf-reports-'));
  const prefix = `bench${randomBytes(3).toString('hex')}`;
  let wf;
  try {
    const { loadConfig } = require('../services/wildfire/dist/config');
    const { startWildfire } = require('../services/wildfire/dist/runtime');
    const { PDFDocument, StandardFonts } = require('pdf-lib');
    wf = await startWildfire(
      loadConfig({
        WILDFIRE_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WILDFIRE_DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
        QUEUE_PREFIX: prefix,
        RATE_LIMIT_PREFIX: prefix,
        DATA_DIR: join(dir, 'data'),
        // The bench measures generation, not the 429 the 10-a-minute budget would give it.
        WILDFIRE_RATE_LIMIT_REPORTS: '1000000',
      }),
      'all',
    );

    // A live municipality as an operator loads it: weather from 2015, its ecosystem, decisions in force.
    const lastYear = new Date().getUTCFullYear() - 1;
    const periodo = `${lastYear}-07`;
    writeFileSync(join(dir, 'weather.csv'), weatherCsv(lastYear));
    writeFileSync(join(dir, 'ecosystem.csv'), `municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct\n${MUNICIPIO},shrubland,6,12.4,18\n`);
    writeFileSync(
      join(dir, 'decisions.csv'),
      [
        'scope_code,date_from,date_to,type,title,measures,legal_basis,source_url',
        `${MUNICIPIO},${periodo}-15,${periodo}-20,closure,Cierre Casa de Campo,Acceso cerrado,Bando 3,https://www.madrid.es/`,
        `CA13,${lastYear}-06-15,${lastYear}-09-30,season,Época de peligro alto,Prohibido el uso del fuego,Orden,`,
        `ES,${periodo}-10,,alert,Alerta nacional,,,`,
      ].join('\n'),
    );
    await wf.ingest.weather(join(dir, 'weather.csv'));
    await wf.ingest.ecosystem(join(dir, 'ecosystem.csv'));
    await wf.ingest.decisions(join(dir, 'decisions.csv'));
    const { token } = await wf.tokens.create({ type: 'live', account: 'bench', scopes: ['reports:write'] });

    let pages = 0;
    const report = async () => {
      // force: a same-day identical request would otherwise answer the finished report again.
      const res = await fetch(`${wf.url}/api/v1/report`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ municipio_id: MUNICIPIO, periodo, force: true }),
      });
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (res.status !== 200 || res.headers.get('content-type') !== 'application/pdf') throw new Error(`POST /api/v1/report answered ${res.status}`);
      pages = (await PDFDocument.load(bytes)).getPageCount();
    };
    await report();

    const bare = async () => {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      for (let i = 1; i <= pages; i++) doc.addPage([595.28, 841.89]).drawText(`Page ${i} of ${pages}`, { x: 56, y: 800, size: 10, font });
      await doc.save();
    };

    console.log(`\nWildfire monthly report: ${MUNICIPIO} ${periodo} (${pages} pages, sealed PDF), ${RUNS} sequential requests after ${WARMUP} warm-up\n`);
    const base = summary(await sortedTimesMs(bare, RUNS, { warmup: WARMUP }));
    reportRow(`baseline: bare pdf-lib document, ${pages} pages`, base);
    reportRow('wildfire POST /api/v1/report (sealed PDF)', summary(await sortedTimesMs(report, RUNS, { warmup: WARMUP })), base);
  } finally {
    if (wf) await wf.close().catch(() => undefined);
    await db.drop();
    const { clearRedisPrefix } = require('../packages/service-kit/dist/testing');
    await clearRedisPrefix(prefix);
    rmSync(dir, { recursive: true, force: true });
  }
};
