import { AppError } from '@firma-riesgo/errors';
import { PdfStructureError, readPdfTail, WorkerTimeoutError, type PageSize, type PdfWorkerPool } from '@firma-riesgo/pdf-core';

export class UnacceptablePdfError extends Error {
  constructor(
    readonly reason: 'not_pdf' | 'encrypted' | 'corrupt' | 'empty',
    message: string,
  ) {
    super(message);
  }
}

/** Time a worker gets to parse one upload; past it, the worker is terminated and the upload refused. */
export const PDF_INSPECTION_BUDGET_MS = 20_000;

/**
 * Accepts what can be signed: a PDF (header), unencrypted, whose cross-reference chain is
 * sound (seals are appended as incremental updates pointing at it) and whose objects
 * parse strictly, with at least one page. Says which test failed. The header and the
 * tail are checked here (cheap scans); the full parse runs on a worker thread, so a
 * hostile file costs a terminated worker, never the request thread.
 */
export async function inspectPdf(pool: Pick<PdfWorkerPool, 'run'>, bytes: Buffer, client: string): Promise<{ pages: number; pageSizes: PageSize[] }> {
  if (bytes.length === 0) throw new UnacceptablePdfError('empty', 'The file is empty');
  if (!bytes.subarray(0, 1024).includes('%PDF-')) throw new UnacceptablePdfError('not_pdf', 'The file is not a PDF (no %PDF- header)');
  try {
    if (readPdfTail(bytes).encrypted) throw new UnacceptablePdfError('encrypted', 'The PDF is encrypted or password-protected; upload an unprotected copy');
  } catch (err) {
    if (err instanceof PdfStructureError) throw new UnacceptablePdfError('corrupt', `The PDF is damaged: ${err.message}`);
    throw err;
  }
  let result;
  try {
    // `client`: the uploader's key, so one key's uploads take at most its share of the workers.
    result = await pool.run('accept-pdf', { pdf: bytes }, { timeoutMs: PDF_INSPECTION_BUDGET_MS, client });
  } catch (err) {
    if (err instanceof WorkerTimeoutError || (err instanceof AppError && err.code === 'TOOL_WORKER_FAILED')) {
      throw new UnacceptablePdfError('corrupt', 'The PDF could not be read within the time and memory it may use');
    }
    throw err;
  }
  if (!result.ok) throw new UnacceptablePdfError(result.reason, result.message);
  return { pages: result.pages, pageSizes: result.pageSizes };
}
