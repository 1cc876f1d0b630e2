import { join } from 'node:path';
import { AppError } from '@firma-riesgo/errors';
import { ToolCallAbortedError } from '../tool-caller';
import type { ToolEngines } from './engines';
import { hasPdfHeader, preparePdf, type PreparedPdf } from './input';
import { notPdf } from './errors';
import type { PdfCheck } from './worker-protocol';
import { startEarly } from './early-run';
import { writeInput } from './write-input';

/** The quick look gives up past this (a file mupdf chews on): qpdf checks it instead. */
export const QUICK_CHECK_TIMEOUT_MS = 5_000;

/**
 * mupdf's quick look at an upload on an idle worker thread (checkPdf): no process
 * started, no file written. Null when no worker is free right now (the check never
 * waits behind other work) or the look failed: the caller then checks with qpdf as before.
 */
export async function quickCheck(engines: ToolEngines, input: Uint8Array, password?: string): Promise<PdfCheck | null> {
  const { size, busy, queued } = engines.pool.stats();
  if (busy >= size || queued > 0) return null;
  try {
    return await engines.pool.run('check-pdf', password === undefined ? { pdf: input } : { pdf: input, password }, { timeoutMs: QUICK_CHECK_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof ToolCallAbortedError || (err instanceof AppError && err.code === 'SHUTTING_DOWN')) throw err;
    return null;
  }
}

/** A file every engine reads as it is: opened without repair, not encrypted, with pages. */
export const isPlainPdf = (check: PdfCheck | null): check is PdfCheck & { pages: number } =>
  Boolean(check?.clean && !check.encrypted && check.pages);

/**
 * preparePdf without its qpdf run when mupdf finds a plain PDF (isPlainPdf): the file is
 * written to `dir` and the page count is mupdf's. Anything else (no worker free, repaired,
 * encrypted, no pages) goes through preparePdf, so every refusal is exactly its refusal;
 * a file mupdf reads cleanly but qpdf cannot is refused by the tool's own qpdf run, with
 * the same 422 `pdf_damaged`.
 */
export async function preparePdfQuick(engines: ToolEngines, dir: string, input: Uint8Array, name = 'in.pdf'): Promise<PreparedPdf> {
  if (!hasPdfHeader(input)) throw notPdf();
  const path = join(dir, name);
  // the engines read the file either way: write it while mupdf looks
  const [check] = await Promise.all([quickCheck(engines, input), writeInput(path, input)]);
  if (!isPlainPdf(check)) return preparePdf(engines.runner, dir, input, name);
  return { path, pages: check.pages, decrypted: false };
}

/**
 * `work` on the upload, for a tool that needs nothing from the check but its verdict
 * (rotate of all pages, flatten, protect): the file is written and `work` starts while
 * mupdf looks, instead of after. A plain PDF (isPlainPdf) keeps `work`'s outcome, result
 * or refusal, as preparePdfQuick + `work` would give. Anything else kills that run (`work`
 * passes `signal` to its engines), waits for it to end, and does what preparePdfQuick does
 * (qpdf's check, its refusals, the decryption of an owner-only file) before running `work`
 * again on the prepared file: a file the engine chews on does not hold the refusal.
 *
 * `accept` judges the page count (mupdf's for a plain PDF, qpdf's otherwise) before `work`'s
 * outcome counts: its refusal wins, and a plain PDF's early run is killed and settled first.
 */
export async function workWhileLooking<T>(
  engines: ToolEngines,
  dir: string,
  input: Uint8Array,
  work: (path: string, signal?: AbortSignal) => Promise<T>,
  accept?: (pages: number) => void,
): Promise<T> {
  if (!hasPdfHeader(input)) throw notPdf();
  const path = join(dir, 'in.pdf');
  // the write first: `work` waits for it, while the look is needed only at the end
  const writing = writeInput(path, input);
  const looking = quickCheck(engines, input);
  await writing;
  // The early run's outcome is not the answer yet: dropped, it is killed and settled before the temp dir is reused or goes.
  const early = startEarly((signal) => work(path, signal));
  let check: PdfCheck | null;
  try {
    check = await looking;
  } catch (err) {
    await early.drop();
    throw err;
  }
  if (isPlainPdf(check)) {
    try {
      accept?.(check.pages);
    } catch (err) {
      await early.drop();
      throw err;
    }
    return early.result;
  }
  await early.drop();
  const prepared = await preparePdf(engines.runner, dir, input);
  accept?.(prepared.pages);
  return work(prepared.path);
}
