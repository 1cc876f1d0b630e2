'use strict';
// Contract rendering: each built-in template's example over HTTP (POST /firma/contratos/{id}/pdf:
// validation, JSONata, layout on a worker thread), and the same layout called in-process,
// beside a bare pdfmake "hello world" (one line, the same embedded font) in the same run.
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { benchDatabase, medianMs } = require('./lib');

const RUNS = Number(process.env.BENCH_RUNS || 15);

// One warm-up call first: fonts, JIT, the worker thread.
const median = (fn) => medianMs(fn, RUNS, { warmup: 1 });

function pages(pdf, work) {
  const file = join(work, 'p.pdf');
  writeFileSync(file, pdf);
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))[1]);
}

module.exports = async function contractsBench() {
  const db = await benchDatabase('contracts');
  const work = mkdtempSync(join(tmpdir(), 'bench-contracts-'));
  let rt;
  try {
    const { loadConfig } = require('../services/esign/dist/config');
    const { startEsign } = require('../services/esign/dist/runtime');
    const { renderLayout } = require('../packages/pdf-core/dist/layout/render-layout');
    const { FONT_FILES } = require('../packages/pdf-core/dist/layout/fonts');
    const { loadTemplates, BUILT_IN_TEMPLATES_DIR } = require('../services/esign/dist/contracts/template-catalogue');
    const { evaluateTemplate } = require('../services/esign/dist/contracts/evaluate-template');
    rt = await startEsign(
      loadConfig({ ESIGN_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ESIGN_DATABASE_URL: db.url, ESIGN_AT_REST_KEY: Buffer.alloc(32, 0x2a).toString('base64'), DATA_DIR: join(work, 'data'), ESIGN_TOOLS_RATE_LIMIT: '1000000' }),
      'api',
    );

    // The baseline: pdfmake alone, one line in the same embedded font, no validation, no worker.
    const pdfmake = require('pdfmake');
    pdfmake.virtualfs.writeFileSync('bench-hello.ttf', readFileSync(FONT_FILES.main.normal));
    pdfmake.setFonts({ Hello: { normal: 'bench-hello.ttf', bold: 'bench-hello.ttf', italics: 'bench-hello.ttf', bolditalics: 'bench-hello.ttf' } });
    pdfmake.setUrlAccessPolicy(() => false);
    pdfmake.setLocalAccessPolicy(() => false);
    const hello = await median(() => pdfmake.createPdf({ content: ['Hola, mundo'], defaultStyle: { font: 'Hello' } }).getBuffer());

    const templates = await loadTemplates([BUILT_IN_TEMPLATES_DIR]);
    console.log(`\nContracts: median of ${RUNS} renderings of each built-in example; baseline = bare pdfmake "hello world", ${hello.toFixed(1)} ms\n`);
    console.log(`${'template'.padEnd(24)} ${'pages'.padStart(5)} ${'HTTP ms'.padStart(8)} ${'layout ms'.padStart(10)} ${'HTTP/hello'.padStart(11)} ${'ms/page'.padStart(8)}`);
    for (const t of [...templates.values()].sort((a, b) => a.id.localeCompare(b.id))) {
      const body = JSON.stringify(t.example);
      let pdf;
      const http = await median(async () => {
        const res = await fetch(`${rt.url}/firma/contratos/${t.id}/pdf`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        if (res.status !== 200) throw new Error(`${t.id}: ${res.status} ${await res.text()}`);
        pdf = Buffer.from(await res.arrayBuffer());
      });
      const variables = t.validator.validate(t.example).value;
      const layout = await median(async () =>
        renderLayout({ metadata: { title: t.title, creationDate: new Date().toISOString(), language: t.locale }, footer: 'Página {page} de {total}', blocks: await evaluateTemplate(t.body, variables, t.locale) }),
      );
      const n = pages(pdf, work);
      console.log(
        `${t.id.padEnd(24)} ${String(n).padStart(5)} ${http.toFixed(1).padStart(8)} ${layout.toFixed(1).padStart(10)} ${(http / hello).toFixed(1).padStart(10)}x ${(http / n).toFixed(1).padStart(8)}`,
      );
    }
  } finally {
    await rt?.close();
    await db.drop();
    rmSync(work, { recursive: true, force: true });
  }
};
