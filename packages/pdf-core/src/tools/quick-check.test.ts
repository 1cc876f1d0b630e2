import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineRunner, type EngineRunner } from '../engine-runner';
import { minimalPdf } from '../__tests__/minimal-pdf';
import { eventually } from '../__tests__/processes';
import { PDFDocument } from 'pdf-lib';
import { extractPages, MAX_SPLIT_PARTS, rotatePdf, splitPdf, unprotectPdf } from './page-tools';
import { preparePdfQuick, workWhileLooking } from './quick-check';
import { createWorkerPool } from './worker-pool';

/** The real runner and pool, with the engine runs of each call listed. */
function countingEngines() {
  const runner = createEngineRunner();
  const runs: string[] = [];
  const counted: EngineRunner = { ...runner, run: (engine, args, opts) => (runs.push(engine), runner.run(engine, args, opts)) };
  return { engines: { runner: counted, pool: createWorkerPool({ size: 1 }) }, runs, close: () => Promise.all([runner.close()]) };
}

/** A PDF of `pages` blank pages. */
async function blankPdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
  return Buffer.from(await doc.save());
}

describe('preparePdfQuick: mupdf looks first, qpdf checks whatever it does not vouch for', () => {
  const { engines, runs, close } = countingEngines();
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'quick-check-'));
  });
  beforeEach(() => {
    runs.length = 0;
  });
  afterAll(async () => {
    await Promise.all([close(), engines.pool.close()]);
    rmSync(work, { recursive: true, force: true });
  });

  it('writes a plain PDF and counts its pages without starting an engine', async () => {
    const prepared = await engines.runner.withTempDir((dir) => preparePdfQuick(engines, dir, minimalPdf()).then((p) => ({ ...p, bytes: readFileSync(p.path) })));
    expect(prepared).toMatchObject({ pages: 1, decrypted: false });
    expect(prepared.bytes.equals(minimalPdf())).toBe(true);
    expect(runs).toEqual([]);
  });

  it('lets qpdf check and decrypt a file with an owner password (as before)', async () => {
    const plain = join(work, 'plain.pdf');
    const locked = join(work, 'owner-only.pdf');
    writeFileSync(plain, minimalPdf());
    execFileSync('qpdf', ['--encrypt', '', 'owner', '256', '--', plain, locked]);
    const prepared = await engines.runner.withTempDir((dir) => preparePdfQuick(engines, dir, readFileSync(locked)));
    expect(prepared).toMatchObject({ pages: 1, decrypted: true });
    expect(runs).toEqual(['qpdf', 'qpdf']);
  });

  it('lets qpdf judge a file mupdf had to repair, so its refusal is the one clients know', async () => {
    // no cross-reference table: mupdf rebuilds it silently, qpdf refuses the file
    const damaged = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n%%EOF\n', 'latin1');
    await expect(engines.runner.withTempDir((dir) => preparePdfQuick(engines, dir, damaged))).rejects.toMatchObject({
      issues: [expect.objectContaining({ loc: ['form', 'file'], type: 'pdf_damaged' })],
    });
    expect(runs).toEqual(['qpdf']);
  });

  it('refuses a file without a PDF header before any work', async () => {
    await expect(engines.runner.withTempDir((dir) => preparePdfQuick(engines, dir, Buffer.from('hello')))).rejects.toMatchObject({
      issues: [expect.objectContaining({ type: 'pdf_invalid' })],
    });
    expect(runs).toEqual([]);
  });
});

describe('unprotectPdf: qpdf checks and decrypts side by side, no mupdf look', () => {
  const { engines: counting, runs, close } = countingEngines();
  const looks: string[] = [];
  const engines = { ...counting, pool: { ...counting.pool, run: ((op, args, opts) => (looks.push(op), counting.pool.run(op, args, opts))) as typeof counting.pool.run } };
  let work: string;
  let locked: Buffer;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'unprotect-'));
    writeFileSync(join(work, 'plain.pdf'), minimalPdf());
    execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', join(work, 'plain.pdf'), join(work, 'locked.pdf')]);
    locked = readFileSync(join(work, 'locked.pdf'));
  });
  beforeEach(() => {
    runs.length = 0;
    looks.length = 0;
  });
  afterAll(async () => {
    await Promise.all([close(), counting.pool.close()]);
    rmSync(work, { recursive: true, force: true });
  });

  it('decrypts an AES-256 file with two qpdf runs and no mupdf look (its password hash cost more than both)', async () => {
    const { data, wasEncrypted } = await unprotectPdf(engines, locked, 'user');
    expect(wasEncrypted).toBe(true);
    writeFileSync(join(work, 'out.pdf'), data);
    expect(execFileSync('qpdf', ['--show-encryption', join(work, 'out.pdf')]).toString()).toContain('File is not encrypted');
    expect(runs).toEqual(['qpdf', 'qpdf']);
    expect(looks).toEqual([]);
  });

  it('returns an unencrypted file unchanged, dropping the decryption, and refuses a wrong password at its field', async () => {
    const same = await unprotectPdf(engines, minimalPdf(), 'anything');
    expect(same.wasEncrypted).toBe(false);
    expect(Buffer.from(same.data).equals(minimalPdf())).toBe(true);
    await expect(unprotectPdf(engines, locked, 'wrong')).rejects.toMatchObject({ issues: [expect.objectContaining({ loc: ['form', 'password'] })] });
    expect(looks).toEqual([]);
  });
});

describe('workWhileLooking: the tool runs while mupdf looks, and only a plain PDF keeps that run', () => {
  const { engines: counting, runs, close } = countingEngines();
  let release: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  // the real look, held until the test lets it through
  const engines = { ...counting, pool: { ...counting.pool, run: ((op, args, opts) => gate.then(() => counting.pool.run(op, args, opts))) as typeof counting.pool.run } };
  let work: string;
  const showEncryption = (data: Uint8Array) => {
    writeFileSync(join(work, 'out.pdf'), data);
    return execFileSync('qpdf', ['--show-encryption', join(work, 'out.pdf')]).toString();
  };
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'work-while-looking-'));
  });
  beforeEach(() => {
    runs.length = 0;
    gate = new Promise((r) => (release = r));
  });
  afterAll(async () => {
    release();
    await Promise.all([close(), counting.pool.close()]);
    rmSync(work, { recursive: true, force: true });
  });

  it('starts qpdf before the look has answered, and keeps its output for a plain PDF', async () => {
    const rotated = rotatePdf(engines, minimalPdf(), 90);
    expect(await eventually(() => runs.length === 1, 10_000)).toBe(true);
    release();
    const data = await rotated;
    expect(runs).toEqual(['qpdf']);
    writeFileSync(join(work, 'rotated.pdf'), data);
    expect(execFileSync('qpdf', ['--show-object=3', join(work, 'rotated.pdf')]).toString()).toMatch(/\/Rotate 90/);
  });

  it('drops that run for a file with an owner password, and rotates the copy qpdf decrypted (as before)', async () => {
    writeFileSync(join(work, 'plain.pdf'), minimalPdf());
    execFileSync('qpdf', ['--encrypt', '', 'owner', '256', '--', join(work, 'plain.pdf'), join(work, 'owner-only.pdf')]);
    const rotated = rotatePdf(engines, readFileSync(join(work, 'owner-only.pdf')), 90);
    expect(await eventually(() => runs.length === 1, 10_000)).toBe(true);
    release();
    const data = await rotated;
    // the early run, qpdf's check, its decryption, the run on the decrypted file
    expect(runs).toEqual(['qpdf', 'qpdf', 'qpdf', 'qpdf']);
    expect(showEncryption(data)).toContain('File is not encrypted');
  });

  it('split: qpdf splits while mupdf looks, and a plain PDF keeps that run\'s parts', async () => {
    const split = splitPdf(engines, await blankPdf(3), { every: 1 });
    expect(await eventually(() => runs.length === 1, 10_000)).toBe(true);
    release();
    const parts = await split;
    expect(runs).toEqual(['qpdf']);
    expect(parts.map((p) => p.pages)).toEqual([[1], [2], [3]]);
  });

  it('split: the page count still refuses too many parts; the early run is killed and settled first', async () => {
    const split = engines.runner.withTempDir(async (dir) => {
      const refusal = await splitPdf(engines, await blankPdf(MAX_SPLIT_PARTS + 1), { every: 1 }).catch((err: unknown) => err);
      return { refusal, dir };
    });
    expect(await eventually(() => runs.length === 1, 10_000)).toBe(true);
    release();
    const { refusal } = await split;
    expect(refusal).toMatchObject({ issues: [expect.objectContaining({ loc: ['form', 'every'], type: 'too_many_parts' })] });
    expect(runs).toEqual(['qpdf']);
  });

  it('split: an owner-password file is split from qpdf\'s decrypted copy, and only that run\'s parts are answered', async () => {
    writeFileSync(join(work, 'three.pdf'), await blankPdf(3));
    execFileSync('qpdf', ['--encrypt', '', 'owner', '256', '--', join(work, 'three.pdf'), join(work, 'three-owner-only.pdf')]);
    const started: Promise<unknown>[] = [];
    const tracked = { ...engines, runner: { ...engines.runner, run: ((engine, args, opts) => started[started.length] = engines.runner.run(engine, args, opts)) as typeof engines.runner.run } };
    const split = splitPdf(tracked, readFileSync(join(work, 'three-owner-only.pdf')), { every: 1 });
    expect(await eventually(() => started.length === 1, 10_000)).toBe(true);
    // the early run writes all its parts before the look answers: they must not be answered too
    await started[0];
    release();
    const parts = await split;
    // the early run, qpdf's check, its decryption, the split of the decrypted file
    expect(runs).toEqual(['qpdf', 'qpdf', 'qpdf', 'qpdf']);
    expect(parts.map((p) => p.pages)).toEqual([[1], [2], [3]]);
    for (const part of parts) expect(showEncryption(part.data)).toContain('File is not encrypted');
  });

  it('extract-pages: qpdf extracts while mupdf looks; the pages are those the selection names, open ranges included', async () => {
    const extracted = extractPages(engines, await blankPdf(4), '4,2-');
    expect(await eventually(() => runs.length === 1, 10_000)).toBe(true);
    release();
    const { data, pages } = await extracted;
    expect(runs).toEqual(['qpdf']);
    expect(pages).toEqual([4, 2, 3, 4]);
    expect((await PDFDocument.load(data)).getPageCount()).toBe(4);
  });

  it('extract-pages: a page past the end is refused as before, the early run killed first', async () => {
    const extracted = extractPages(engines, await blankPdf(2), '1-3').catch((err: unknown) => err);
    expect(await eventually(() => runs.length === 1, 10_000)).toBe(true);
    release();
    expect(await extracted).toMatchObject({ issues: [expect.objectContaining({ loc: ['form', 'pages'], type: 'page_out_of_range' })] });
    expect(runs).toEqual(['qpdf']);
  });

  it('answers a file mupdf had to repair with qpdf\'s refusal, whatever the early run did', async () => {
    const damaged = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n%%EOF\n', 'latin1');
    release();
    await expect(engines.runner.withTempDir((dir) => workWhileLooking(engines, dir, damaged, async () => 'early run kept'))).rejects.toMatchObject({
      issues: [expect.objectContaining({ loc: ['form', 'file'], type: 'pdf_damaged' })],
    });
  });
});
