import { EncryptedPDFError, ParseSpeeds, PDFDocument } from 'pdf-lib';
import { PdfStructureError, readPdfTail } from '@firma-riesgo/pdf-core';

export class UnacceptablePdfError extends Error {
  constructor(
    readonly reason: 'not_pdf' | 'encrypted' | 'corrupt' | 'empty',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Accepts what can be signed: a PDF (header), unencrypted, whose cross-reference chain is
 * sound (seals are appended as incremental updates pointing at it) and whose objects
 * parse strictly, with at least one page. Says which test failed.
 */
export async function inspectPdf(bytes: Buffer): Promise<{ pages: number }> {
  if (bytes.length === 0) throw new UnacceptablePdfError('empty', 'The file is empty');
  if (!bytes.subarray(0, 1024).includes('%PDF-')) throw new UnacceptablePdfError('not_pdf', 'The file is not a PDF (no %PDF- header)');
  try {
    if (readPdfTail(bytes).encrypted) throw new UnacceptablePdfError('encrypted', 'The PDF is encrypted or password-protected; upload an unprotected copy');
  } catch (err) {
    if (err instanceof PdfStructureError) throw new UnacceptablePdfError('corrupt', `The PDF is damaged: ${err.message}`);
    throw err;
  }
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true, parseSpeed: ParseSpeeds.Fastest });
  } catch (err) {
    if (err instanceof EncryptedPDFError) throw new UnacceptablePdfError('encrypted', 'The PDF is encrypted or password-protected; upload an unprotected copy');
    throw new UnacceptablePdfError('corrupt', `The PDF cannot be read: ${(err as Error).message.split('\n')[0]}`);
  }
  let pages: number;
  try {
    pages = doc.getPageCount();
  } catch (err) {
    throw new UnacceptablePdfError('corrupt', `The PDF's page tree cannot be read: ${(err as Error).message.split('\n')[0]}`);
  }
  if (pages < 1) throw new UnacceptablePdfError('corrupt', 'The PDF has no pages');
  return { pages };
}
