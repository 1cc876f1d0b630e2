import { EncryptedPDFError, ParseSpeeds, PDFDocument } from 'pdf-lib';

/** Why an uploaded PDF cannot be signed, or its page count. */
/** Each page's size as shown (points, its /Rotate applied): [width, height]. */
export type PageSize = [number, number];

export type PdfAcceptance = { ok: true; pages: number; pageSizes: PageSize[] } | { ok: false; reason: 'encrypted' | 'corrupt'; message: string };

/**
 * Parses every object of an uploaded PDF strictly with pdf-lib and counts its pages.
 * pdf-lib is synchronous JavaScript and inflates object streams, so a hostile file can
 * take seconds or gigabytes: this runs only on a worker thread of the pool, under its
 * time and heap limits (see worker-pool.ts).
 */
export async function acceptPdf(bytes: Uint8Array): Promise<PdfAcceptance> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true, parseSpeed: ParseSpeeds.Fastest });
  } catch (err) {
    if (err instanceof EncryptedPDFError) return { ok: false, reason: 'encrypted', message: 'The PDF is encrypted or password-protected; upload an unprotected copy' };
    return { ok: false, reason: 'corrupt', message: `The PDF cannot be read: ${String((err as Error)?.message ?? err).split('\n')[0]}` };
  }
  let pages: number;
  try {
    pages = doc.getPageCount();
  } catch (err) {
    return { ok: false, reason: 'corrupt', message: `The PDF's page tree cannot be read: ${String((err as Error)?.message ?? err).split('\n')[0]}` };
  }
  if (pages < 1) return { ok: false, reason: 'corrupt', message: 'The PDF has no pages' };
  const pageSizes = doc.getPages().map((page): PageSize => {
    const { width, height } = page.getSize();
    const turned = Math.abs(page.getRotation().angle) % 180 === 90;
    return turned ? [round(height), round(width)] : [round(width), round(height)];
  });
  return { ok: true, pages, pageSizes };
}

const round = (n: number) => Math.round(n * 100) / 100;
