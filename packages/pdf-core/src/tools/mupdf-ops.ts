import type * as Mupdf from 'mupdf/dist/mupdf';
import { PdfInputError } from './errors';
import { checkImages } from './image-checks';
import { openPdf, type MupdfModule } from './mupdf-document';
import type { EncryptionProbe, ExtractTextArgs, FindTextArgs, FoundText, TextHit, PdfCheck, ExtractedText, ImagesToPdfArgs, RenderArgs, RenderedPage } from './worker-protocol';

/**
 * General mupdf operations: render, images to PDF, encryption probe. Redaction has its own
 * module (mupdf-redact.ts). mupdf is synchronous WebAssembly: these run only inside the
 * worker threads (pdf-worker.ts), which load the ESM package with a dynamic import.
 */

export function probeEncryption(mupdf: MupdfModule, data: Uint8Array): EncryptionProbe {
  const doc = mupdf.Document.openDocument(data, 'application/pdf');
  const method = doc.getMetaData('encryption') ?? null;
  let pages: number | null = null;
  try {
    pages = doc.countPages() || null;
  } catch {
    // the page tree sits in an encrypted object stream: unknown without the password
  }
  return { method: method && method !== 'None' ? method : null, pages };
}

/**
 * The quick look quick-check.ts relies on: mupdf opens lazily (xref and trailer, then the
 * page tree's count), so this costs a fraction of a qpdf run. Any doubt is `clean: false`.
 */
export function checkPdf(mupdf: MupdfModule, args: { pdf: Uint8Array; password?: string }): PdfCheck {
  const unreadable: PdfCheck = { clean: false, encrypted: false, locked: false, pages: null };
  let doc: Mupdf.PDFDocument | null;
  try {
    doc = mupdf.Document.openDocument(args.pdf, 'application/pdf').asPDF();
  } catch {
    return unreadable;
  }
  if (!doc) return unreadable;
  try {
    const method = doc.getMetaData('encryption');
    const encrypted = Boolean(method && method !== 'None') || doc.needsPassword();
    let locked = doc.needsPassword();
    if (locked && args.password !== undefined) locked = doc.authenticatePassword(args.password) === 0;
    const pages = locked ? null : doc.countPages();
    return { clean: !doc.wasRepaired(), encrypted, locked, pages };
  } catch {
    return unreadable;
  } finally {
    doc.destroy();
  }
}

/** Thrown inside a worker when a job's result passes the call's output budget (worker-protocol.ts `output-budget`). */
export class ResultTooLargeError extends Error {}

/** The selected pages as PNGs; the PNG bytes are counted as each page is encoded, and passing maxResultBytes stops. */
export function renderPages(mupdf: MupdfModule, args: RenderArgs, maxResultBytes = Infinity): RenderedPage[] {
  const doc = openPdf(mupdf, args.pdf);
  const count = doc.countPages();
  const pages = args.pages ?? Array.from({ length: count }, (_, i) => i + 1);
  const scale = args.dpi / 72;
  // sizes first: refuse before spending time on any page
  let total = 0;
  for (const n of pages) {
    const page = doc.loadPage(n - 1);
    const [x0, y0, x1, y1] = page.getBounds();
    page.destroy();
    const pixels = Math.ceil((x1 - x0) * scale) * Math.ceil((y1 - y0) * scale);
    if (pixels > args.maxPixels) {
      throw new PdfInputError('dpi', `Page ${n} would be ${pixels} pixels at ${args.dpi} dpi (limit ${args.maxPixels}); use a lower dpi`, 'image_too_large');
    }
    total += pixels;
  }
  if (total > args.maxTotalPixels) {
    throw new PdfInputError('dpi', `The pages would be ${total} pixels at ${args.dpi} dpi (limit ${args.maxTotalPixels}); use a lower dpi or fewer pages`, 'image_too_large');
  }
  const out: RenderedPage[] = [];
  let bytes = 0;
  try {
    for (const n of pages) {
      const page = doc.loadPage(n - 1);
      const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
      const rendered = { page: n, width: pixmap.getWidth(), height: pixmap.getHeight(), png: new Uint8Array(pixmap.asPNG()) };
      pixmap.destroy();
      page.destroy();
      bytes += rendered.png.byteLength;
      if (bytes > maxResultBytes) throw new ResultTooLargeError();
      out.push(rendered);
    }
  } finally {
    doc.destroy();
  }
  return out;
}

/**
 * The text of each page in reading order (mupdf structured text), for readers who cannot
 * see the page images. Stops at `maxPages` pages or `maxChars` characters in all.
 */
export function extractText(mupdf: MupdfModule, args: ExtractTextArgs): ExtractedText {
  const doc = openPdf(mupdf, args.pdf);
  const count = doc.countPages();
  const pages: string[] = [];
  let chars = 0;
  let truncated = count > args.maxPages;
  for (let i = 0; i < Math.min(count, args.maxPages); i++) {
    const page = doc.loadPage(i);
    const stext = page.toStructuredText('preserve-whitespace');
    let text = stext.asText().replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    stext.destroy();
    page.destroy();
    if (chars + text.length > args.maxChars) {
      text = text.slice(0, Math.max(0, args.maxChars - chars));
      truncated = true;
    }
    chars += text.length;
    pages.push(text);
    if (truncated && chars >= args.maxChars) break;
  }
  doc.destroy();
  return { pages, truncated };
}

/**
 * Where each needle occurs (mupdf structured text search, exact: case counts), as boxes
 * in fractions of the page's bounds (its visible box, rotation applied), origin top-left:
 * the measure a field is placed in. A match that wraps onto a second line is the union of
 * its quads.
 */
export function findText(mupdf: MupdfModule, args: FindTextArgs): FoundText {
  const doc = openPdf(mupdf, args.pdf);
  const count = doc.countPages();
  const hits: TextHit[] = [];
  const maxHits = args.maxHits ?? 2_000;
  try {
    for (let i = 0; i < Math.min(count, args.maxPages) && hits.length < maxHits; i++) {
      const page = doc.loadPage(i);
      const [x0, y0, x1, y1] = page.getBounds();
      const width = x1 - x0;
      const height = y1 - y0;
      const stext = page.toStructuredText('preserve-whitespace');
      args.needles.forEach((needle, n) => {
        for (const quads of stext.search(needle, {})) {
          const xs = quads.flatMap((q) => [q[0], q[2], q[4], q[6]]);
          const ys = quads.flatMap((q) => [q[1], q[3], q[5], q[7]]);
          const left = Math.max(x0, Math.min(...xs));
          const top = Math.max(y0, Math.min(...ys));
          const right = Math.min(x1, Math.max(...xs));
          const bottom = Math.min(y1, Math.max(...ys));
          if (hits.length < maxHits) hits.push({ needle: n, page: i + 1, box: { x: (left - x0) / width, y: (top - y0) / height, w: (right - left) / width, h: (bottom - top) / height } });
        }
      });
      stext.destroy();
      page.destroy();
    }
  } finally {
    doc.destroy();
  }
  return { pages: count, hits };
}

const PAGE_SIZES: Record<ImagesToPdfArgs['pageSize'], [number, number]> = {
  a4: [595.28, 841.89],
  letter: [612, 792],
  legal: [612, 1008],
};

/**
 * One page per image, the image scaled to fit inside the margins and centred. JPEG data
 * is embedded as it came (DCTDecode, no re-encoding); PNG pixels are stored losslessly
 * (Flate, with an SMask for transparency).
 */
export function imagesToPdf(mupdf: MupdfModule, args: ImagesToPdfArgs): Uint8Array {
  // the route checks too, before queueing; checked again here for any other caller of the op
  checkImages(args.images);
  const doc = new mupdf.PDFDocument();
  args.images.forEach(({ data, name }, i) => {
    let image: Mupdf.Image;
    try {
      image = new mupdf.Image(data);
    } catch (err) {
      throw new PdfInputError('files', `File ${i + 1} ("${name.slice(0, 80)}") cannot be decoded: ${String((err as Error).message).slice(0, 120)}`, 'image_damaged');
    }
    const iw = image.getWidth();
    const ih = image.getHeight();
    let [pw, ph] = PAGE_SIZES[args.pageSize];
    const landscape = args.orientation === 'landscape' || (args.orientation === 'auto' && iw > ih);
    if (landscape) [pw, ph] = [ph, pw];
    const boxW = pw - 2 * args.margin;
    const boxH = ph - 2 * args.margin;
    const scale = Math.min(boxW / iw, boxH / ih);
    const w = iw * scale;
    const h = ih * scale;
    const x = (pw - w) / 2;
    const y = (ph - h) / 2;
    const ref = doc.addImage(image);
    const resources = doc.addObject({ XObject: { Im0: ref } });
    const contents = `q ${num(w)} 0 0 ${num(h)} ${num(x)} ${num(y)} cm /Im0 Do Q`;
    const page = doc.addPage([0, 0, pw, ph], 0, resources, contents);
    doc.insertPage(-1, page);
    image.destroy();
  });
  const out = new Uint8Array(doc.saveToBuffer('compress,garbage').asUint8Array());
  doc.destroy();
  return out;
}

const num = (n: number) => n.toFixed(4).replace(/\.?0+$/, '');
