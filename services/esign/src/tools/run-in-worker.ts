import { readFile } from 'node:fs/promises';
import { preparePdf, TOOL_TIMEOUTS, type ToolEngines, type WorkerOps } from '@firma-riesgo/pdf-core';

/**
 * Checks the upload like every tool (PDF header, readable, no password needed;
 * owner-only encryption removed), then runs `op` on a worker thread with the prepared bytes.
 */
export async function runOnPreparedPdf<K extends keyof WorkerOps>(
  engines: ToolEngines,
  input: Uint8Array,
  op: K,
  args: (pdf: Uint8Array, pages: number) => WorkerOps[K]['args'],
): Promise<WorkerOps[K]['result']> {
  const { pdf, pages } = await engines.runner.withTempDir(async (dir) => {
    const prepared = await preparePdf(engines.runner, dir, input);
    return { pdf: prepared.decrypted ? new Uint8Array(await readFile(prepared.path)) : input, pages: prepared.pages };
  });
  return engines.pool.run(op, args(pdf, pages), { timeoutMs: TOOL_TIMEOUTS.worker });
}
