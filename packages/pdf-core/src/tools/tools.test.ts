import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineRunner } from '../engine-runner';
import { EngineMissingError } from '../engine-errors';
import { minimalPdf } from '../__tests__/minimal-pdf';
import { eventually, isAlive } from '../__tests__/processes';
import { PatternTimeoutError, PdfInputError, ToolsBusyError, WorkerTimeoutError } from './errors';
import type { ToolEngines } from './engines';
import { pdfInfo } from './info';
import { formatPageList, parsePageList, parsePageRanges, qpdfPageSpec } from './page-ranges';
import { rotatePdf, splitPdf } from './page-tools';
import { createWorkerPool } from './worker-pool';

describe('page selections', () => {
  it('parses pages and ranges, with N- running to the last page', () => {
    expect(parsePageRanges('1-3, 5,8-', 10, 'ranges')).toEqual([[1, 2, 3], [5], [8, 9, 10]]);
    expect(parsePageList('3,1', 3, 'pages')).toEqual([3, 1]);
    expect(formatPageList([1, 2, 3, 5, 7, 8])).toBe('1-3,5,7-8');
  });

  it('names the field and the page when a selection is out of range, backwards or malformed', () => {
    expect(() => parsePageList('0', 3, 'pages')).toThrow(/Page 0 is out of range: the document has 3 pages/);
    expect(() => parsePageList('2-9', 3, 'pages')).toThrow(/Page 9/);
    expect(() => parsePageList('3-1', 3, 'pages')).toThrow(/backwards/);
    expect(() => parsePageList('1;2', 3, 'pages')).toThrow(/not a page or a range/);
    expect(() => parsePageList(' , ', 3, 'pages')).toThrow(/No pages/);
  });

  it('says a selection in qpdf\'s syntax before the page count is known, and leaves the ones it would read otherwise to the parser', () => {
    expect(qpdfPageSpec('3, 1 - 2,8-,5')).toBe('3,1-2,8-z,5');
    for (const refusedByParser of ['3-1', '1;2', ' , ', 'z', '1-z']) expect(qpdfPageSpec(refusedByParser)).toBeNull();
  });
});

describe('worker pool', () => {
  const pool = createWorkerPool({ size: 1, maxQueue: 1 });
  afterAll(() => pool.close());

  it('terminates a job past its time limit and serves the next one on a fresh worker', async () => {
    const evil = { pdf: minimalPdf(), patterns: ['x'], caseInsensitive: false, regexBudgetMs: 10_000 };
    await expect(pool.run('redact', evil, { timeoutMs: 1 })).rejects.toBeInstanceOf(WorkerTimeoutError);
    const images = await pool.run('pdf-to-images', { pdf: minimalPdf(), dpi: 72, maxPixels: 1e6, maxTotalPixels: 1e6 });
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ page: 1, width: 200, height: 200 });
  });

  it('stops a regex phase at its own budget with a 422 on patterns', async () => {
    const err = await pool
      .run('redact', { pdf: await pdfWithText(`${'a'.repeat(50)}b`), patterns: ['(a+)+$'], caseInsensitive: false, regexBudgetMs: 300 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PatternTimeoutError);
    expect((err as PatternTimeoutError).status).toBe(422);
  });

  it('answers 503 TOOLS_BUSY when every worker is busy and the line is full', async () => {
    const busy = createWorkerPool({ size: 1, maxQueue: 1 });
    try {
      const job = () => busy.run('pdf-to-images', { pdf: minimalPdf(), dpi: 72, maxPixels: 1e6, maxTotalPixels: 1e6 });
      const running = [job(), job()];
      await expect(job()).rejects.toBeInstanceOf(ToolsBusyError);
      await Promise.all(running);
    } finally {
      await busy.close();
    }
  });
});

describe('engine-level tools', () => {
  const engines = { runner: createEngineRunner(), pool: createWorkerPool({ size: 1 }) };
  afterAll(() => engines.pool.close());

  it('answers a missing engine with 503 naming it', async () => {
    const runner = createEngineRunner({ binaries: { qpdf: '/nonexistent/qpdf' } });
    const err = await rotatePdf({ runner, pool: engines.pool }, minimalPdf(), 90).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineMissingError);
    expect((err as EngineMissingError).status).toBe(503);
    expect((err as Error).message).toContain('qpdf');
  });

  it('removes its temp dir after success and after failure', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tools-unit-'));
    try {
      const runner = createEngineRunner({ tmpRoot: root });
      expect(await splitPdf({ runner, pool: engines.pool }, minimalPdf(), {})).toHaveLength(1);
      await expect(splitPdf({ runner, pool: engines.pool }, minimalPdf(), { ranges: '2' })).rejects.toThrow(/out of range/);
      expect(readdirSync(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("early engine runs, once a check refuses the file", () => {
  const pool = createWorkerPool({ size: 1 });
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'early-runs-'));
  });
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Calls `tool` on a damaged file with `engine` replaced by a stand-in whose runs matching
   * `pattern` record their pid and hang 300 s (others exec the real engine): the call must
   * answer qpdf's refusal without waiting for them, and leave none alive.
   */
  async function refusedWithoutWaiting(engine: 'pdfinfo' | 'qpdf', pattern: string, tool: (engines: ToolEngines) => Promise<unknown>): Promise<void> {
    const pids = join(dir, `${engine}-pids`);
    const standIn = join(dir, engine);
    writeFileSync(standIn, `#!/bin/sh\ncase "$*" in ${pattern}) echo $$ >> ${JSON.stringify(pids)}; exec sleep 300;; esac\nexec ${await which(engine)} "$@"\n`, { mode: 0o755 });
    const runner = createEngineRunner({ binaries: { [engine]: standIn } });
    try {
      const err = await tool({ runner, pool }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PdfInputError);
      expect((err as PdfInputError).issues[0]?.type).toBe('pdf_damaged');
      // (waiting for them would have held the answer 300 s; a run killed before its first line left no pid)
      const started = existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').map(Number).filter((pid) => pid > 1) : [];
      expect(await eventually(() => started.every((pid) => !isAlive(pid)))).toBe(true);
    } finally {
      await runner.close();
    }
  }

  const damaged = new TextEncoder().encode('%PDF-1.7\nnot a PDF body at all\n');

  it("info kills the pdfinfo runs started beside qpdf's check once the check refuses the file, and answers the refusal", async () => {
    await refusedWithoutWaiting('pdfinfo', '*', (engines) => pdfInfo(engines, damaged));
  });

  it("rotate kills the engine run started while mupdf looks once the look finds the file damaged, and answers qpdf's refusal", async () => {
    await refusedWithoutWaiting('qpdf', '*--rotate=*', (engines) => rotatePdf(engines, damaged, 90));
  });
});

/** The absolute path of a program on PATH. */
async function which(program: string): Promise<string> {
  const found = (process.env.PATH ?? '').split(':').map((d) => join(d, program)).find((path) => existsSync(path));
  if (!found) throw new Error(`${program} is not on PATH`);
  return found;
}

async function pdfWithText(text: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(text, { x: 20, y: 400, size: 8, font });
  return doc.save();
}
