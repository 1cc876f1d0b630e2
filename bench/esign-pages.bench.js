'use strict';
// The signing page's page images: GET /firma/firmar/{token}/paginas/{n}?ancho=960 for every page
// of a 10-page document, first fetch (rendered by the mupdf worker pool and cached) and cached
// fetch, beside the bare engine (`mutool draw` of the same page at the same resolution) in the
// same run; then the document text (extract-text) beside `mutool draw -F txt`.
const { execFile } = require('node:child_process');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { promisify } = require('node:util');
const { PDFDocument, StandardFonts, rgb } = require('pdf-lib');
const { benchDatabase } = require('./lib');

const run = promisify(execFile);
const PAGES = 10;
const WIDTH = 960;

async function documentPdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let p = 1; p <= PAGES; p++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawRectangle({ x: 50, y: 700, width: 495, height: 90, color: rgb(0.9, 0.93, 0.97) });
    for (let i = 0; i < 45; i++) page.drawText(`Cláusula ${p}.${i}: las partes acuerdan lo siguiente, sin perjuicio de lo dispuesto en la ley.`, { x: 56, y: 680 - i * 14, size: 10, font });
  }
  return Buffer.from(await doc.save());
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

module.exports = async function esignPagesBench() {
  const db = await benchDatabase('pages');
  const work = mkdtempSync(join(tmpdir(), 'bench-pages-'));
  let rt;
  try {
    const { loadConfig } = require('../services/esign/dist/config');
    const { startEsign } = require('../services/esign/dist/runtime');
    rt = await startEsign(loadConfig({ ESIGN_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ESIGN_DATABASE_URL: db.url, ESIGN_AT_REST_KEY: Buffer.alloc(32, 0x2a).toString('base64'), DATA_DIR: join(work, 'data') }), 'api');
    const { key } = await rt.keys.create({ tenant: 'bench' });
    const pdf = await documentPdf();
    const file = join(work, 'doc.pdf');
    writeFileSync(file, pdf);
    const form = new FormData();
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'doc.pdf');
    const doc = await (await fetch(`${rt.url}/firma/documentos`, { method: 'POST', headers: { authorization: key }, body: form })).json();
    const created = await fetch(`${rt.url}/firma/solicitudes`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify({ document_id: doc.document_id, signee_email: 'bench@example.test' }),
    });
    const token = new URL((await created.json()).signing_url).pathname.split('/').pop();
    const get = async (path) => {
      const res = await fetch(`${rt.url}/firma/firmar/${token}${path}`);
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      await res.arrayBuffer();
    };

    const dpi = (WIDTH * 72) / 595.28;
    await run('mutool', ['draw', '-q', '-r', String(dpi), '-o', join(work, 'warm.png'), file, '1']);
    const first = [];
    const cached = [];
    const bare = [];
    for (let n = 1; n <= PAGES; n++) {
      first.push(await timed(() => get(`/paginas/${n}?ancho=${WIDTH}`)));
      cached.push(await timed(() => get(`/paginas/${n}?ancho=${WIDTH}`)));
      bare.push(await timed(() => run('mutool', ['draw', '-q', '-r', String(dpi), '-o', join(work, `p${n}.png`), file, String(n)])));
    }
    const textService = await timed(() => get(''));
    const textBare = await timed(() => run('mutool', ['draw', '-q', '-F', 'txt', '-o', join(work, 'doc.txt'), file]));

    console.log(`\nSigning page images: ${PAGES}-page document, ${WIDTH} px wide, median ms per page; baseline = \`mutool draw\` of the same page\n`);
    console.log(`${'path'.padEnd(44)} ${'ms/page'.padStart(8)} ${'ratio'.padStart(7)}`);
    const line = (name, ms, base) => console.log(`${name.padEnd(44)} ${ms.toFixed(1).padStart(8)} ${base ? `${(ms / base).toFixed(2)}x`.padStart(7) : ''}`);
    line('mutool draw (bare engine, a process per page)', median(bare));
    line('GET /paginas/{n}, first fetch (renders)', median(first), median(bare));
    line('GET /paginas/{n}, cached', median(cached), median(bare));
    console.log(`\nSigning page with the text of ${PAGES} pages (first open, extract-text on the worker pool): ${textService.toFixed(1)} ms; \`mutool draw -F txt\` of the document: ${textBare.toFixed(1)} ms`);
  } finally {
    await rt?.close();
    await db.drop();
    rmSync(work, { recursive: true, force: true });
  }
};
