import { readFile } from 'node:fs/promises';
import { hasPdfHeader, isPlainPdf, notPdf, preparePdf, quickCheck, TOOL_TIMEOUTS, type ToolEngines, type WorkerOps } from '@firma-riesgo/pdf-core';

/**
 * Checks the upload like every tool (PDF header, readable, no password needed;
 * owner-only encryption removed), then runs `op` on a worker thread with the prepared bytes.
 * A plain PDF (mupdf's quick look on a worker: clean, unencrypted, with pages) goes to
 * the worker as it came, with no temp file and no qpdf run; anything else is checked by
 * qpdf (preparePdf), as before.
 */
export async function runOnPreparedPdf<K extends keyof WorkerOps>(
  engines: ToolEngines,
  input: Uint8Array,
  op: K,
  args: (pdf: Uint8Array, pages: number) => WorkerOps[K]['args'],
): Promise<WorkerOps[K]['result']> {
  if (!hasPdfHeader(input)) throw notPdf();
  const check = await quickCheck(engines, input);
  const { pdf, pages } = isPlainPdf(check)
    ? { pdf: input, pages: check.pages }
    : await engines.runner.withTempDir(async (dir) => {
        const prepared = await preparePdf(engines.runner, dir, input);
        return { pdf: prepared.decrypted ? new Uint8Array(await readFile(prepared.path)) : input, pages: prepared.pages };
      });
  return engines.pool.run(op, args(pdf, pages), { timeoutMs: TOOL_TIMEOUTS.worker });
}
