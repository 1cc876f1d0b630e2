import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineRunner, type EngineRunner } from '../engine-runner';
import { minimalPdf } from '../__tests__/minimal-pdf';
import { preparePdfQuick } from './quick-check';
import { createWorkerPool } from './worker-pool';

/** The real runner and pool, with the engine runs of each call listed. */
function countingEngines() {
  const runner = createEngineRunner();
  const runs: string[] = [];
  const counted: EngineRunner = { ...runner, run: (engine, args, opts) => (runs.push(engine), runner.run(engine, args, opts)) };
  return { engines: { runner: counted, pool: createWorkerPool({ size: 1 }) }, runs, close: () => Promise.all([runner.close()]) };
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
