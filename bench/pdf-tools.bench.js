'use strict';
// The PDF tools over HTTP (tenant key, multipart upload, validation, temp dirs, worker threads)
// beside the bare engine doing the same job on the same file in the same run: the service's
// overhead as a ratio. Then throughput of info, compress and watermark under 8 concurrent requests.
const autocannon = require('autocannon');
const { execFile } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { promisify } = require('node:util');
const { PDFDocument, StandardFonts } = require('pdf-lib');
const { DURATION, benchDatabase, medianMs } = require('./lib');

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS || 3);

async function textPdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([595, 842]);
    for (let i = 0; i < 40; i++) page.drawText(`Page ${p} line ${i}: DNI 12345678Z lorem ipsum dolor sit amet`, { x: 50, y: 790 - i * 18, size: 10, font });
  }
  return Buffer.from(await doc.save());
}

function multipart(fields, files) {
  const boundary = `----bench${Date.now()}`;
  const parts = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const { field, name, data, type } of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`), data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const median = (fn) => medianMs(fn, RUNS);

module.exports = async function pdfToolsBench() {
  const db = await benchDatabase('tools');
  const work = mkdtempSync(join(tmpdir(), 'bench-tools-'));
  let rt;
  try {
    const { loadConfig } = require('../services/esign/dist/config');
    const { startEsign } = require('../services/esign/dist/runtime');
    const ops = require('../packages/pdf-core/dist/tools/pdf-lib-ops');
    rt = await startEsign(
      loadConfig({ ESIGN_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ESIGN_DATABASE_URL: db.url, DATA_DIR: join(work, 'data'), ESIGN_MAX_UPLOAD_MB: '100', ESIGN_TOOLS_RATE_LIMIT: '1000000' }),
      'api',
    );
    const { key } = await rt.keys.create({ tenant: 'bench' });
    const mupdf = await import('mupdf');
    const { redactPdf } = require('../packages/pdf-core/dist/tools/mupdf-redact');

    const call = async (tool, fields, files) => {
      const { body, contentType } = multipart(fields, files);
      const res = await fetch(`${rt.url}/firma/tools/${tool}`, { method: 'POST', body, headers: { authorization: `Bearer ${key}`, 'content-type': contentType } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${tool}: HTTP ${res.status}`);
    };
    const pdfFile = (data) => [{ field: 'file', name: 'doc.pdf', data, type: 'application/pdf' }];

    const inputs = {};
    for (const pages of [10, 100]) {
      const data = await textPdf(pages);
      const path = join(work, `doc-${pages}.pdf`);
      writeFileSync(path, data);
      const locked = join(work, `locked-${pages}.pdf`);
      await run('qpdf', ['--encrypt', 'pw', 'pw', '256', '--', path, locked]);
      inputs[pages] = { data, path, locked, lockedData: readFileSync(locked) };
    }
    const out = (name) => join(work, name);
    const gs = (args) => run('gs', ['-dSAFER', '-dBATCH', '-dNOPAUSE', '-dQUIET', '-sDEVICE=pdfwrite', ...args]);
    const icc = '/usr/share/color/icc/ghostscript/srgb.icc';
    writeFileSync(
      out('pdfa.ps'),
      `%!\n/ICCProfile (${icc}) def\n[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark\n[{icc_PDFA} << /N 3 >> /PUT pdfmark\n[{icc_PDFA} ICCProfile (r) file /PUT pdfmark\n[/_objdef {OI} /type /dict /OBJ pdfmark\n[{OI} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA} /OutputConditionIdentifier (sRGB) >> /PUT pdfmark\n[{Catalog} << /OutputIntents [ {OI} ] >> /PUT pdfmark\n`,
    );

    // [tool, form fields, bare engine doing the same on the same file]
    const tools = [
      ['info', {}, (i) => run('qpdf', ['--json=2', '--json-key=encrypt', '--json-key=pages', '--json-key=acroform', i.path])],
      ['split', { every: '1' }, (i) => run('qpdf', ['--split-pages=1', i.path, out('split-%d.pdf')])],
      ['extract-pages', { pages: '1-5' }, (i) => run('qpdf', [i.path, '--pages', '.', '1-5', '--', out('x.pdf')])],
      ['rotate', { angle: '90' }, (i) => run('qpdf', ['--rotate=+90', i.path, out('r.pdf')])],
      ['protect', { password: 'pw' }, (i) => run('qpdf', ['--encrypt', 'pw', 'pw', '256', '--', i.path, out('p.pdf')])],
      ['unprotect', { password: 'pw' }, (i) => run('qpdf', ['--password=pw', '--decrypt', i.locked, out('u.pdf')]), true],
      ['flatten', {}, (i) => run('qpdf', ['--generate-appearances', '--flatten-annotations=all', i.path, out('f.pdf')])],
      ['compress', { level: 'printer' }, (i) => gs(['-dPDFSETTINGS=/printer', `-sOutputFile=${out('c.pdf')}`, i.path])],
      ['to-pdfa', {}, (i) => gs(['-dPDFA=2', '-dPDFACompatibilityPolicy=1', '-sColorConversionStrategy=RGB', `--permit-file-read=${icc}`, `-sOutputFile=${out('a.pdf')}`, out('pdfa.ps'), i.path])],
      ['watermark', { text: 'CONFIDENCIAL' }, (i) => ops.watermarkPdf({ pdf: i.data, text: 'CONFIDENCIAL', fontSize: 48, opacity: 0.15, rotation: 45, color: '#808080' })],
      ['page-numbers', {}, (i) => ops.numberPages({ pdf: i.data, position: 'bottom-center', format: '{page}/{total}', fontSize: 10, start: 1 })],
      ['metadata', { title: 'Bench' }, (i) => ops.setMetadata(i.data, { title: 'Bench' })],
      ['redact', { patterns: '\\d{8}Z' }, (i) => redactPdf(mupdf, { pdf: i.data, patterns: ['\\d{8}Z'], caseInsensitive: false, regexBudgetMs: 60000 }, () => undefined)],
      ['pdf-to-images', { dpi: '150' }, (i) => run('mutool', ['draw', '-r', '150', '-o', out('img-%d.png'), i.path])],
    ];

    console.log(`\nPDF tools: median of ${RUNS} runs; baseline = the bare engine (command or library call) on the same file\n`);
    console.log(`${'tool'.padEnd(16)} ${'pages'.padStart(5)} ${'service ms'.padStart(11)} ${'engine ms'.padStart(10)} ${'ratio'.padStart(7)}`);
    for (const [tool, fields, bare, locked] of tools) {
      for (const pages of [10, 100]) {
        const input = inputs[pages];
        const data = locked ? input.lockedData : input.data;
        const service = await median(() => call(tool, fields, pdfFile(data)));
        const engine = await median(() => bare(input));
        console.log(`${tool.padEnd(16)} ${String(pages).padStart(5)} ${service.toFixed(0).padStart(11)} ${engine.toFixed(0).padStart(10)} ${(service / engine).toFixed(2).padStart(6)}x`);
      }
    }

    // images-to-pdf (10 PNG pages rendered above), OCR and office once each: slow, no page-count axis
    const pngs = Array.from({ length: 10 }, (_, i) => ({ field: 'files', name: `p${i}.png`, data: readFileSync(out(`img-${i + 1}.png`)), type: 'image/png' }));
    const i2p = await median(() => call('images-to-pdf', {}, pngs));
    console.log(`${'images-to-pdf'.padEnd(16)} ${'10img'.padStart(5)} ${i2p.toFixed(0).padStart(11)} ${'-'.padStart(10)}`);
    const scan = join(work, 'scan.pdf');
    await run('mutool', ['convert', '-o', scan, '-O', 'compress', out('img-1.png')]).catch(() => undefined);
    const ocrIn = { data: readFileSync(scan), path: scan };
    const ocrService = await median(() => call('ocr', { lang: 'spa' }, pdfFile(ocrIn.data)));
    // same tesseract threading as the service (ocrmypdf already runs pages in parallel)
    const ocrBare = await median(() => run('ocrmypdf', ['-l', 'spa', '--skip-text', '--output-type', 'pdf', '--optimize', '1', '--quiet', scan, out('o.pdf')], { env: { ...process.env, OMP_THREAD_LIMIT: '1' } }));
    console.log(`${'ocr'.padEnd(16)} ${'1'.padStart(5)} ${ocrService.toFixed(0).padStart(11)} ${ocrBare.toFixed(0).padStart(10)} ${(ocrService / ocrBare).toFixed(2).padStart(6)}x`);
    writeFileSync(out('note.txt'), 'Informe trimestral\n'.repeat(200));
    await run('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${work}/lo`, '--convert-to', 'odt', '--outdir', work, out('note.txt')]);
    const odt = readFileSync(out('note.odt'));
    const officeService = await median(() => call('office-to-pdf', {}, [{ field: 'file', name: 'note.odt', data: odt, type: 'application/octet-stream' }]));
    const officeBare = await median(() => run('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${work}/lo2-${Math.random()}`, '--convert-to', 'pdf', '--outdir', work, out('note.odt')]));
    console.log(`${'office-to-pdf'.padEnd(16)} ${'odt'.padStart(5)} ${officeService.toFixed(0).padStart(11)} ${officeBare.toFixed(0).padStart(10)} ${(officeService / officeBare).toFixed(2).padStart(6)}x`);

    console.log(`\nThroughput, 8 concurrent requests for ${DURATION} s, 10-page PDF:\n`);
    for (const [tool, fields] of [
      ['info', {}],
      ['compress', { level: 'printer' }],
      ['watermark', { text: 'CONFIDENCIAL' }],
    ]) {
      const { body, contentType } = multipart(fields, pdfFile(inputs[10].data));
      const r = await autocannon({
        url: `${rt.url}/firma/tools/${tool}`,
        method: 'POST',
        connections: 8,
        duration: DURATION,
        body,
        headers: { authorization: `Bearer ${key}`, 'content-type': contentType },
      });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${tool}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      console.log(`${tool.padEnd(16)} ${r.requests.average.toFixed(1).padStart(7)} req/s  p50 ${String(r.latency.p50).padStart(5)} ms  p99 ${String(r.latency.p99).padStart(5)} ms`);
    }
  } finally {
    await rt?.close();
    await db.drop();
    rmSync(work, { recursive: true, force: true });
  }
};
