import type * as Mupdf from 'mupdf/dist/mupdf';
import { PdfInputError } from './errors';

/** What the mupdf engine modules share. mupdf runs only on the worker threads (pdf-worker.ts). */

export type MupdfModule = typeof Mupdf;

/**
 * Opens untrusted bytes as a PDF. A file mupdf cannot read is the caller's fault, so it
 * becomes a PdfInputError on `file` (a 422), never a 500.
 */
export function openPdf(mupdf: MupdfModule, data: Uint8Array): Mupdf.PDFDocument {
  let doc: Mupdf.Document;
  try {
    doc = mupdf.Document.openDocument(data, 'application/pdf');
  } catch (err) {
    throw new PdfInputError('file', `The PDF cannot be read: ${String((err as Error).message).slice(0, 160)}`, 'pdf_damaged');
  }
  const pdf = doc.asPDF();
  if (!pdf) throw new PdfInputError('file', 'The file is not a PDF', 'pdf_invalid');
  return pdf;
}
