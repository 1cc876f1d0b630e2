import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineRunner, type EngineRunner } from './engine-runner';
import { OutputBudget, OutputBudgetExceededError } from './output-budget';
import { chargeOutput, ToolCallAbortedError, withToolCaller } from './tool-caller';
import { createWorkerPool, type PdfWorkerPool } from './tools/worker-pool';
import { minimalPdf } from './__tests__/minimal-pdf';

describe('a tool call past its output budget', () => {
  let root: string;
  let sh: EngineRunner;
  let pool: PdfWorkerPool;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'budget-'));
    // "qpdf" here is a shell: an engine that writes whatever the test says
    sh = createEngineRunner({ tmpRoot: root, binaries: { qpdf: '/bin/sh' } });
    pool = createWorkerPool({ size: 1 });
  });
  afterAll(async () => {
    await Promise.all([sh.close(), pool.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  it('stops an engine that keeps writing into the call temp dir, long before its time limit, and the dir goes', async () => {
    const budget = new OutputBudget(64 * 1024, 256 * 1024);
    let written: number | undefined;
    const run = withToolCaller({ client: 'c', budget }, () =>
      sh.withTempDir(async (dir) => {
        try {
          // writes without end: only the budget's watch can stop it before the 10 minutes
          await sh.run('qpdf', ['-c', 'yes 0123456789abcdef > out.pdf'], { cwd: dir, timeoutMs: 600_000 });
        } finally {
          written = readdirSync(dir).length;
        }
      }),
    );
    await expect(run).rejects.toBeInstanceOf(ToolCallAbortedError);
    expect(budget.exceeded).toBeInstanceOf(OutputBudgetExceededError);
    expect(budget.exceeded).toMatchObject({ status: 413, code: 'TOOL_OUTPUT_TOO_LARGE' });
    expect(written).toBe(1);
    expect(readdirSync(root)).toEqual([]);
  });

  // The whole dir counts: files deep in subdirectories (ocrmypdf's and LibreOffice's working
  // dirs), and many files each far under the limit (split's parts).
  it.each([
    // the subdirectory is seen (and measured, empty) before the writing in it starts
    ['a file deep in a subdirectory', 'mkdir -p work/pages && sleep 0.2 && yes 0123456789abcdef > work/pages/out.pdf'],
    ['file after small file, each far under the limit', 'i=0; while :; do i=$((i+1)); head -c 4096 /dev/zero > part-$i.pdf; done'],
  ])('stops an engine that keeps writing %s, and the dir goes', async (_what, script) => {
    const budget = new OutputBudget(64 * 1024, 256 * 1024);
    const run = withToolCaller({ client: 'c', budget }, () => sh.withTempDir((dir) => sh.run('qpdf', ['-c', script], { cwd: dir, timeoutMs: 600_000 })));
    await expect(run).rejects.toBeInstanceOf(ToolCallAbortedError);
    expect(budget.exceeded).toMatchObject({ status: 413, code: 'TOOL_OUTPUT_TOO_LARGE' });
    expect(readdirSync(root)).toEqual([]);
  });

  it('leaves an engine that writes within the budget alone', async () => {
    const budget = new OutputBudget(64 * 1024, 256 * 1024);
    const size = await withToolCaller({ client: 'c', budget }, () =>
      sh.withTempDir(async (dir) => {
        await sh.run('qpdf', ['-c', 'head -c 100000 /dev/zero > out.pdf'], { cwd: dir });
        return readdirSync(dir).length;
      }),
    );
    expect(size).toBe(1);
    expect(budget.exceeded).toBeUndefined();
  });

  it('counts each file charged and refuses the one that passes the limit, stopping the call', async () => {
    const budget = new OutputBudget(1000);
    await withToolCaller({ budget }, async () => {
      chargeOutput(600);
      expect(() => chargeOutput(600)).toThrow(OutputBudgetExceededError);
    });
    expect(budget.signal.aborted).toBe(true);
    expect(budget.used).toBe(1200);
  });

  it('lets no worker result over what is left of the budget leave the worker, and the job after it still runs', async () => {
    const pdf = await minimalPdf();
    const budget = new OutputBudget(2_000);
    const render = withToolCaller({ client: 'c', budget }, () => pool.run('pdf-to-images', { pdf, dpi: 72, pages: [1, 1, 1, 1, 1, 1, 1, 1], maxPixels: 1e8, maxTotalPixels: 1e9 }));
    await expect(render).rejects.toBeInstanceOf(OutputBudgetExceededError);
    expect(budget.exceeded).toBeDefined();
    // the worker refused the result itself: it was not terminated
    expect(pool.stats()).toMatchObject({ started: 1, busy: 0 });
    const unbounded = await pool.run('pdf-to-images', { pdf, dpi: 72, pages: [1, 1], maxPixels: 1e8, maxTotalPixels: 1e9 });
    expect(unbounded).toHaveLength(2);
  });
});
