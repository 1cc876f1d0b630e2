'use strict';
// The PDF tools over HTTP (tenant key, multipart upload, validation, temp dirs, worker threads)
// beside the bare engine doing the same job on the same file in the same run: the service's
// overhead as a ratio. First the quick tools against their goal (BENCH_QUICK_RUNS runs each,
// alternating with the engine, which a small node process of its own runs and times), then the
// others, then throughput of info, compress and watermark under 8 concurrent requests.
// BENCH_QUICK_ONLY=1 stops after the quick tools.
const autocannon = require('autocannon');
const { execFile, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const http = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { promisify } = require('node:util');
const { Redis } = require('ioredis');
const { PDFDocument, StandardFonts } = require('pdf-lib');
const { DURATION, benchDatabase, medianMs } = require('./lib');

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS || 3);
/** The quick tools are measured over more runs, service and engine alternating, after one warm-up call each. */
const QUICK_RUNS = Number(process.env.BENCH_QUICK_RUNS || 15);
/** The goal: a quick tool over HTTP takes at most 1.15x the bare engine, or the engine + 5 ms, whichever is larger. */
const QUICK_TOOLS = ['info', 'rotate', 'split', 'extract-pages', 'flatten', 'protect', 'unprotect', 'metadata'];
const goalMs = (engineMs) => Math.max(1.15 * engineMs, engineMs + 5);
const signed = (ms) => `${ms >= 0 ? '+' : ''}${ms.toFixed(1)}`;

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

/**
 * The client: one POST on a keep-alive connection with node:http, reading the whole answer;
 * resolves with the status. What an integrator's backend can equally do (any HTTP client
 * with a connection pool, the file framed once). The bench used the in-process `fetch`
 * (undici, WHATWG streams, the body framed per call) before: against a trivial local server
 * that costs 0.5 ms (60 KB bodies) to 0.9 ms (600 KB) a call more than this client, time of
 * the bench's own JavaScript, on the same event loop as the service, counted as the
 * service's against an engine timed with no client at all. The service still receives,
 * parses and answers the same bytes; the bare engines are measured as before.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
/** Resolves with the status; `onBytes` hears the answer's length. */
function post(url, body, headers, onBytes, via = agent) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: via, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('error', reject);
      res.on('end', () => {
        onBytes?.(bytes);
        resolve(res.statusCode);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Medians of the `calls` called in turns (a, b, c, a, b, c...), so load that comes and goes hits them alike.
 * A call that resolves with a number reports its own time (ms): the bare engines are timed in their own process.
 */
async function pairedMedians(calls, runs) {
  for (const fn of calls) await fn();
  const times = calls.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of calls.entries()) {
      const t = performance.now();
      const own = await fn();
      times[k].push(typeof own === 'number' ? own : performance.now() - t);
    }
  }
  const mid = (xs) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  return times.map(mid);
}

/**
 * The bare engine commands, run and timed by a plain node process of their own (about 45 MB),
 * as a shell or a small script would run them: spawn() forks the calling process, and the
 * cost of a fork grows with its memory, so timing them from this process (which also holds
 * the whole esign service and its mupdf workers, 300+ MB) would add 10-15 ms to every
 * command and flatter the ratio. `run(steps)`: the groups of `steps` one after the other,
 * the commands of a group side by side; resolves with the time the process measured.
 */
function bareEngines() {
  const script = `
const { execFile, spawn } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const run = (cmd, args) => new Promise((resolve, reject) => execFile(cmd, args, (err) => (err ? reject(err) : resolve())));
process.on('message', async ({ id, steps }) => {
  try {
    const t = performance.now();
    for (const group of steps) await Promise.all(group.map(([cmd, args]) => run(cmd, args)));
    process.send({ id, ms: performance.now() - t });
  } catch (err) {
    process.send({ id, error: String(err) });
  }
});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map();
  let nextId = 0;
  child.on('message', ({ id, ms, error }) => {
    const w = waiting.get(id);
    waiting.delete(id);
    if (error) w.reject(new Error(error));
    else w.resolve(ms);
  });
  return {
    run: (steps) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        child.send({ id, steps });
      }),
    close: () => child.kill(),
  };
}

/**
 * The HTTP frame every service around an engine has, and nothing else: a bare node:http server
 * in this process (as the service is) that takes the same multipart upload, writes its file
 * into a new temp dir, reads an output of the size the service answered, removes the dir and
 * answers those bytes. No key, no rate limit, no form parsing beyond finding the file, no
 * engine. `setAnswerBytes(n)` sets the output's size for the next calls.
 */
async function frameFloor(work) {
  const output = join(work, 'frame-output.bin');
  writeFileSync(output, Buffer.alloc(0));
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const start = body.indexOf('\r\n\r\n', body.indexOf('filename=')) + 4;
      const end = body.lastIndexOf('\r\n--');
      const dir = mkdtempSync(join(work, 'frame-'));
      writeFileSync(join(dir, 'in.pdf'), body.subarray(start, end));
      const answer = readFileSync(output);
      rmSync(dir, { recursive: true, force: true });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(answer.length) });
      res.end(answer);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/`;
  return {
    setAnswerBytes: (bytes) => writeFileSync(output, Buffer.alloc(bytes, 0x25)),
    call: (body, contentType) => async () => {
      const status = await post(url, body, { 'content-type': contentType });
      if (status !== 200) throw new Error(`frame: HTTP ${status}`);
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * The bare pdf-lib operations (what the metadata, watermark and page-numbers tools run on
 * their worker thread) in a plain node process of their own: loads the library once,
 * then reports the median of `runs` calls on the file (after one warm-up call).
 */
function pdfLibBaseline(work) {
  const script = join(work, 'pdf-lib-bare.js');
  writeFileSync(
    script,
    `const ops = require(${JSON.stringify(join(__dirname, '../packages/pdf-core/dist/tools/pdf-lib-ops'))});
const { readFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const [op, file, args, runs] = process.argv.slice(2);
const pdf = readFileSync(file);
const a = JSON.parse(args);
const call = { metadata: () => ops.setMetadata(pdf, a), watermark: () => ops.watermarkPdf({ pdf, ...a }), 'page-numbers': () => ops.numberPages({ pdf, ...a }) }[op];
(async () => {
  await call();
  const times = [];
  for (let i = 0; i < Number(runs); i++) { const t = performance.now(); await call(); times.push(performance.now() - t); }
  times.sort((x, y) => x - y);
  console.log(times[Math.floor(times.length / 2)]);
})();`,
  );
  return async (op, file, args, runs) => Number((await run(process.execPath, [script, op, file, JSON.stringify(args), String(runs)])).stdout);
}

module.exports = async function pdfToolsBench() {
  const db = await benchDatabase('tools');
  const prefix = `bench-tools-${randomBytes(4).toString('hex')}`;
  const work = mkdtempSync(join(tmpdir(), 'bench-tools-'));
  let rt;
  let bare;
  try {
    const { loadConfig } = require('../services/esign/dist/config');
    const { startEsign } = require('../services/esign/dist/runtime');
    const ops = require('../packages/pdf-core/dist/tools/pdf-lib-ops');
    rt = await startEsign(
      loadConfig({
        ESIGN_PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        ESIGN_DATABASE_URL: db.url,
        ESIGN_AT_REST_KEY: Buffer.alloc(32, 0x2a).toString('base64'),
        // As in production (more than one instance): the tools' rate limits, the key cache's channel and the queue in Redis.
        REDIS_URL,
        QUEUE_PREFIX: prefix,
        ESIGN_RATE_LIMIT_PREFIX: prefix,
        DATA_DIR: join(work, 'data'),
        ESIGN_MAX_UPLOAD_MB: '100',
        ESIGN_TOOLS_RATE_LIMIT: '1000000',
      }),
      'api',
    );
    const { key } = await rt.keys.create({ tenant: 'bench' });
    const mupdf = await import('mupdf');
    const { redactPdf } = require('../packages/pdf-core/dist/tools/mupdf-redact');

    /** A call of `tool` with this form, the request body framed once (a client holding the file frames it once too). */
    let answered = 0;
    const prepare = (tool, fields, files, expected = 200) => {
      const { body, contentType } = multipart(fields, files);
      const headers = { authorization: `Bearer ${key}`, 'content-type': contentType };
      const callTool = async () => {
        const status = await post(`${rt.url}/firma/tools/${tool}`, body, headers, (bytes) => (answered = bytes));
        if (status !== expected) throw new Error(`${tool}: HTTP ${status}`);
      };
      return Object.assign(callTool, { body, contentType });
    };
    /**
     * One call of a slow tool (100 ms to seconds) on a new connection: a kept-alive one can sit
     * idle past the server's keep-alive timeout while the bench runs a bare engine in this
     * process (redact: 3 s of mupdf on the main thread), and the next request on it then meets
     * the server's close (ECONNRESET). A connection costs nothing measurable at these times.
     */
    const call = async (tool, fields, files) => {
      const { body, contentType } = multipart(fields, files);
      const status = await post(`${rt.url}/firma/tools/${tool}`, body, { authorization: `Bearer ${key}`, 'content-type': contentType }, undefined, false);
      if (status !== 200) throw new Error(`${tool}: HTTP ${status}`);
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

    // The quick tools: each beside the engine command(s) the tool runs, with the same options, on the same file.
    // info runs three: qpdf's structure (the keys the tool reads), then poppler's pdfinfo for the Info strings and the XMP, side by side.
    bare = bareEngines();
    const bareLib = pdfLibBaseline(work);
    // A new output file each run, as the service writes into a fresh temp dir: rewriting the same file each
    // run cost qpdf more here (ext4 flushes a file truncated and rewritten: +3 ms on 10 pages, 2-3x for split's 100 parts).
    let outputs = 0;
    const fresh = (name) => out(`q${outputs++}-${name}`);
    const qpdf = (args) => [[['qpdf', ['--warning-exit-0', ...args]]]];
    // [tool, form fields, engine name, the engine's steps (groups run one after the other, the commands of a group side by side), locked input,
    //  the service's engine steps where they are more than the engine's (sandboxed for "in bwrap")]
    const quick = [
      ['info', {}, 'qpdf --json + pdfinfo x2', (i) => [[['qpdf', ['--warning-exit-0', '--json=2', ...['encrypt', 'pages', 'acroform', 'attachments', 'outlines'].map((k) => `--json-key=${k}`), i.path]]], [['pdfinfo', ['-isodates', '-enc', 'UTF-8', i.path]], ['pdfinfo', ['-meta', i.path]]]]],
      ['rotate', { angle: '90' }, 'qpdf', (i) => qpdf(['--rotate=+90', i.path, fresh('r.pdf')])],
      ['split', { every: '1' }, 'qpdf', (i) => qpdf(['--split-pages=1', i.path, fresh('split-%d.pdf')])],
      ['extract-pages', { pages: '1-5' }, 'qpdf', (i) => qpdf([i.path, '--pages', '.', '1-5', '--', fresh('x.pdf')])],
      ['flatten', {}, 'qpdf', (i) => qpdf(['--generate-appearances', '--flatten-annotations=all', i.path, fresh('f.pdf')])],
      ['protect', { password: 'pw' }, 'qpdf', (i) => qpdf(['--encrypt', 'pw', 'pw', '256', '--', i.path, fresh('p.pdf')])],
      // the service runs qpdf's check (encrypted or not, the pages, a wrong password) beside the decryption, each in its sandbox
      ['unprotect', { password: 'pw' }, 'qpdf', (i) => qpdf(['--password=pw', '--decrypt', i.locked, fresh('u.pdf')]), true, (i) => [[['qpdf', ['--warning-exit-0', '--password=pw', '--decrypt', i.locked, fresh('u.pdf')]], ['qpdf', ['--warning-exit-0', '--password=pw', '--json=2', '--json-key=encrypt', '--json-key=pages', i.locked]]]]],
      ['metadata', { title: 'Bench' }, 'pdf-lib, own node process', null],
    ];
    // The reference: the same steps, each command in the service's engine sandbox (bubblewrap, wrapped as the
    // service wraps it, seeing only the bench's work dir), run and timed by the same small process. Every
    // engine run of the service pays this wrapper (new namespaces and mounts, one more exec); the sandbox stays.
    const sandbox = rt.tools.runner.sandbox === 'bwrap' ? require('../packages/pdf-core/dist/engine-sandbox').bwrapSandbox() : null;
    // the engines the service runs in the lean sandbox (no /proc, four devices), by binary
    const { ENGINES, ENGINE_NAMES, isLeanEngine } = require('../packages/pdf-core/dist/engines');
    const leanBinaries = new Set(ENGINE_NAMES.filter(isLeanEngine).map((name) => ENGINES[name].binary));
    // `lean`: as the service runs that binary, unless told
    const inSandbox = (steps, lean) =>
      steps.map((group) =>
        group.map(([cmd, args]) => {
          const c = sandbox.wrap({ program: cmd, argv: args, env: { PATH: process.env.PATH }, cwd: work, lean: lean ?? leanBinaries.has(cmd) }, work);
          return [c.program, c.argv];
        }),
      );
    console.log(`\nQuick PDF tools: median of ${QUICK_RUNS} runs, service, bare engine and sandboxed engine in turns, the engines run and timed by a small node process of its own; goal: service <= max(1.15x engine, engine + 5 ms)`);
    console.log(
      sandbox
        ? 'reference: "in bwrap" = the engine commands the service runs (unprotect: qpdf\'s check beside the decryption), each in the service\'s bubblewrap sandbox (as the service runs them); "frame" = a bare node:http server in this process taking the same upload, writing it to a temp dir, reading and answering as many bytes as the service answered (no key, limit, form parsing or engine); "floor" = in bwrap + frame, the least a service that sandboxes every engine run can take; "door" = the service refusing the same upload at validation (rotate with angle 45: 422 after the key, the rate limit, metering and the whole form, no engine); "+door" = in bwrap + door, the least this service takes with its key, limit and form; "over +door" = service minus that: writing the upload, mupdf\'s look, the launcher, reading and answering the output\n'
        : 'reference: the engines run unsandboxed in this service (ESIGN_ENGINE_SANDBOX resolved to none): "floor" = engine + frame\n',
    );
    console.log(
      `${'tool'.padEnd(16)} ${'pages'.padStart(5)} ${'service ms'.padStart(11)} ${'engine ms'.padStart(10)} ${'ratio'.padStart(7)} ${'goal ms'.padStart(8)}  goal  ${'in bwrap'.padStart(8)} ${'frame'.padStart(6)} ${'floor'.padStart(6)}  ${'floor vs goal'.padEnd(13)} ${'door'.padStart(5)} ${'+door'.padStart(6)}  ${'+door vs goal'.padEnd(13)} ${'over +door'.padStart(10)}  engine`,
    );
    const frame = await frameFloor(work);
    const verdicts = { met: 0, floorOver: [], doorOver: [], lookOver: [], serviceOver: [] };
    // mupdf's quick look at each file through the service's own worker pool, as a call makes it:
    // beside the engine for rotate, split, flatten, protect and extract-pages, before the
    // worker job for metadata (its result decides whether qpdf must check the file first)
    const looks = {};
    for (const pages of [10, 100]) {
      const pdf = new Uint8Array(inputs[pages].data);
      [looks[pages]] = await pairedMedians([() => rt.tools.pool.run('check-pdf', { pdf }, { client: 'bench' })], QUICK_RUNS);
    }
    for (const [tool, fields, engineName, steps, locked, serviceSteps = steps] of quick) {
      for (const pages of [10, 100]) {
        const input = inputs[pages];
        const data = locked ? input.lockedData : input.data;
        const callService = prepare(tool, fields, pdfFile(data));
        // one call first: the frame answers as many bytes as the service does
        await callService();
        frame.setAnswerBytes(answered);
        const callFrame = frame.call(callService.body, callService.contentType);
        const callDoor = prepare('rotate', { angle: '45' }, pdfFile(data), 422);
        let service;
        let engine;
        let sandboxed;
        let framed;
        let door;
        if (steps) {
          const calls = [callService, callFrame, callDoor, () => bare.run(steps(input))];
          if (sandbox) calls.push(() => bare.run(inSandbox(serviceSteps(input))));
          [service, framed, door, engine, sandboxed] = await pairedMedians(calls, QUICK_RUNS);
        } else {
          // the library call is timed inside its own process, right after the service's runs
          [service, framed, door] = await pairedMedians([callService, callFrame, callDoor], QUICK_RUNS);
          engine = await bareLib(tool, input.path, { title: 'Bench' }, QUICK_RUNS);
        }
        const goal = goalMs(engine);
        const met = service <= goal;
        const floor = (sandboxed ?? engine) + framed;
        const withDoor = (sandboxed ?? engine) + door;
        const versus = (ms) => (ms <= goal ? 'fits' : `over by ${(ms - goal).toFixed(1)}`);
        if (met) verdicts.met++;
        else if (floor > goal) verdicts.floorOver.push(`${tool} ${pages}`);
        else if (withDoor > goal) verdicts.doorOver.push(`${tool} ${pages}`);
        else if (!steps && withDoor + looks[pages] > goal) verdicts.lookOver.push(`${tool} ${pages} (+door + look ${(withDoor + looks[pages]).toFixed(1)} ms)`);
        else verdicts.serviceOver.push(`${tool} ${pages} (${signed(service - withDoor)} ms over in bwrap + door, ${(goal - withDoor).toFixed(1)} ms left by it)`);
        console.log(
          `${tool.padEnd(16)} ${String(pages).padStart(5)} ${service.toFixed(1).padStart(11)} ${engine.toFixed(1).padStart(10)} ${(service / engine).toFixed(2).padStart(6)}x ${goal.toFixed(1).padStart(8)}  ${met ? 'met ' : 'MISS'}  ${(sandboxed === undefined ? '-' : sandboxed.toFixed(1)).padStart(8)} ${framed.toFixed(1).padStart(6)} ${floor.toFixed(1).padStart(6)}  ${versus(floor).padEnd(13)} ${door.toFixed(1).padStart(5)} ${withDoor.toFixed(1).padStart(6)}  ${versus(withDoor).padEnd(13)} ${signed(service - withDoor).padStart(10)}  ${engineName}`,
        );
      }
    }
    await frame.close();
    if (sandbox) {
      // The wrapper alone: a program that does nothing, bare and in the sandbox, timed the same way.
      const nothing = [[['true', []]]];
      const [bareTrue, wrappedTrue, leanTrue] = await pairedMedians([() => bare.run(nothing), () => bare.run(inSandbox(nothing)), () => bare.run(inSandbox(nothing, true))], QUICK_RUNS);
      console.log(
        `reference: the sandbox alone, \`true\` ${bareTrue.toFixed(1)} ms bare, ${wrappedTrue.toFixed(1)} ms in bwrap (${signed(wrappedTrue - bareTrue)}), ${leanTrue.toFixed(1)} ms in the lean bwrap qpdf and pdfinfo get (${signed(leanTrue - bareTrue)}): for every engine run one after the other (info: two), of the 5 ms the goal leaves the service`,
      );
      // The engine launcher's hop: the same sandboxed command through the service's engine runner
      // (IPC to the launcher, its spawn, the answer back) and from the small process that times the engines.
      const version = [[['qpdf', ['--version']]]];
      const [viaRunner, viaSmall] = await pairedMedians([() => rt.tools.runner.run('qpdf', ['--version']).then(() => undefined), () => bare.run(inSandbox(version))], QUICK_RUNS);
      console.log(
        `reference: the engine launcher, \`qpdf --version\` in the lean bwrap ${viaRunner.toFixed(1)} ms through the service's engine runner, ${viaSmall.toFixed(1)} ms from the small process: ${signed(viaRunner - viaSmall)} ms for every engine run one after the other`,
      );
    }
    console.log(`reference: mupdf's look at the file through the service's worker pool, 10 pages ${looks[10].toFixed(1)} ms, 100 pages ${looks[100].toFixed(1)} ms (beside the engine for the qpdf tools, before the worker job for metadata)`);
    const rows = 2 * quick.length;
    console.log(`quick tools: goal met on ${verdicts.met} of ${rows} rows`);
    if (verdicts.floorOver.length > 0) {
      console.log(
        `  goal NOT met, and out of reach while every engine run has its own sandbox, on ${verdicts.floorOver.length}: ${verdicts.floorOver.join(', ')} (the sandboxed engine plus the bare HTTP frame already take more than the goal)`,
      );
    }
    if (verdicts.doorOver.length > 0) {
      console.log(
        `  goal NOT met, and out of reach while the key, the rate limit and the form stay, on ${verdicts.doorOver.length}: ${verdicts.doorOver.join(', ')} (the sandboxed engine plus the service's own refusal of the same upload take more than the goal)`,
      );
    }
    if (verdicts.lookOver.length > 0) {
      console.log(
        `  goal NOT met, and out of reach while the look decides which files qpdf must check first, on ${verdicts.lookOver.length}: ${verdicts.lookOver.join(', ')} (in bwrap + door + the look take more than the goal)`,
      );
    }
    if (verdicts.serviceOver.length > 0) console.log(`  goal NOT met, within reach of in bwrap + door, on ${verdicts.serviceOver.length}: ${verdicts.serviceOver.join('; ')}`);

    if (process.env.BENCH_QUICK_ONLY === '1') return;

    // [tool, form fields, bare engine doing the same on the same file]
    const tools = [
      ['compress', { level: 'printer' }, (i) => gs(['-dPDFSETTINGS=/printer', `-sOutputFile=${out('c.pdf')}`, i.path])],
      ['to-pdfa', {}, (i) => gs(['-dPDFA=2', '-dPDFACompatibilityPolicy=1', '-sColorConversionStrategy=RGB', `--permit-file-read=${icc}`, `-sOutputFile=${out('a.pdf')}`, out('pdfa.ps'), i.path])],
      ['watermark', { text: 'CONFIDENCIAL' }, (i) => ops.watermarkPdf({ pdf: i.data, text: 'CONFIDENCIAL', fontSize: 48, opacity: 0.15, rotation: 45, color: '#808080' })],
      ['page-numbers', {}, (i) => ops.numberPages({ pdf: i.data, position: 'bottom-center', format: '{page}/{total}', fontSize: 10, start: 1 })],
      ['redact', { patterns: '\\d{8}Z' }, (i) => redactPdf(mupdf, { pdf: i.data, patterns: ['\\d{8}Z'], caseInsensitive: false, regexBudgetMs: 60000 }, () => undefined)],
      ['pdf-to-images', { dpi: '150' }, (i) => run('mutool', ['draw', '-r', '150', '-o', out('img-%d.png'), i.path])],
    ];

    console.log(`\nThe other PDF tools: median of ${RUNS} runs; baseline = the bare engine (command or library call) on the same file\n`);
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
    bare?.close();
    agent.destroy();
    await rt?.close();
    await db.drop();
    rmSync(work, { recursive: true, force: true });
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
};
