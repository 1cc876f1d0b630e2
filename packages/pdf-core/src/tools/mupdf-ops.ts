import type * as Mupdf from 'mupdf/dist/mupdf';
import { PdfInputError } from './errors';
import { checkImages } from './image-checks';
import type { EncryptionProbe, ImagesToPdfArgs, RedactArgs, RedactResult, RenderArgs, RenderedPage } from './worker-protocol';

type MupdfModule = typeof Mupdf;

/**
 * mupdf operations. mupdf is synchronous WebAssembly: these run only inside the
 * worker threads (pdf-worker.ts), which load the ESM package with a dynamic import.
 */

/** Tells the pool that a phase with its own time budget starts (ms) or ends (null). */
export type DeadlineSignal = (ms: number | null) => void;

function openPdf(mupdf: MupdfModule, data: Uint8Array): Mupdf.PDFDocument {
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

export function renderPages(mupdf: MupdfModule, args: RenderArgs): RenderedPage[] {
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
  for (const n of pages) {
    const page = doc.loadPage(n - 1);
    const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true);
    out.push({ page: n, width: pixmap.getWidth(), height: pixmap.getHeight(), png: new Uint8Array(pixmap.asPNG()) });
    pixmap.destroy();
    page.destroy();
  }
  doc.destroy();
  return out;
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

const REDACTED = '[REDACTED]';

interface PageText {
  text: string;
  /** Quad of each character of `text`; null where lines were joined. */
  quads: (Mupdf.Quad | null)[];
}

/**
 * The page's text in reading order, lines joined by a space, so that a match wrapping
 * onto the next line is still one match; each character keeps its quad.
 */
function pageText(page: Mupdf.PDFPage): PageText {
  const stext = page.toStructuredText('preserve-whitespace');
  const chars: string[] = [];
  const quads: (Mupdf.Quad | null)[] = [];
  stext.walk({
    onChar(c, _origin, _font, _size, quad) {
      chars.push(c);
      quads.push(quad);
    },
    endLine() {
      chars.push(' ');
      quads.push(null);
    },
  });
  stext.destroy();
  return { text: chars.join(''), quads };
}

/** Rectangles to black out for a match: one quad per run of characters on the same line. */
function matchQuads(quads: (Mupdf.Quad | null)[], start: number, end: number): Mupdf.Quad[] {
  const out: Mupdf.Quad[] = [];
  let run: Mupdf.Quad | null = null;
  for (let i = start; i < end; i++) {
    const q = quads[i];
    if (!q) {
      if (run) out.push(run);
      run = null;
      continue;
    }
    if (run && Math.abs(q[1] - run[3]) < 0.5 * Math.abs(run[5] - run[1]) + 0.5) {
      // same line: extend the run to this character's right edge
      run = [run[0], run[1], q[2], q[3], run[4], run[5], q[6], q[7]];
    } else {
      if (run) out.push(run);
      run = [...q] as Mupdf.Quad;
    }
  }
  if (run) out.push(run);
  return out;
}

/**
 * Redacts every match of the patterns: the text under it is removed from the content
 * (not only covered), images under it are blanked, covered line art removed; then the
 * places applyRedactions does not reach are scrubbed: Info, XMP, bookmarks, form
 * values and annotation contents. User regexes run under `deadline`, a hard budget
 * enforced by the pool.
 */
export function redactPdf(mupdf: MupdfModule, args: RedactArgs, deadline: DeadlineSignal): RedactResult {
  const doc = openPdf(mupdf, args.pdf);
  const regexes = args.patterns.map((p) => new RegExp(p, args.caseInsensitive ? 'gi' : 'g'));
  const count = doc.countPages();
  const texts: PageText[] = [];
  for (let i = 0; i < count; i++) {
    const page = doc.loadPage(i);
    texts.push(pageText(page));
    page.destroy();
  }

  deadline(args.regexBudgetMs);
  const hits: { start: number; end: number }[][] = texts.map(({ text }) => {
    const found: { start: number; end: number }[] = [];
    for (const re of regexes) {
      for (const m of text.matchAll(re)) {
        if (m[0].length > 0) found.push({ start: m.index, end: m.index + m[0].length });
      }
    }
    return found;
  });
  const scrub = (value: string) => regexes.reduce((v, re) => v.replace(re, REDACTED), value);
  const scrubbed = scrubDocument(doc, scrub);
  deadline(null);

  let matches = 0;
  let pagesWithMatches = 0;
  hits.forEach((found, i) => {
    if (found.length === 0) return;
    const page = doc.loadPage(i);
    const { quads } = texts[i] as PageText;
    for (const { start, end } of found) {
      const q = matchQuads(quads, start, end);
      if (q.length === 0) continue;
      const annot = page.createAnnotation('Redact');
      annot.setQuadPoints(q);
      annot.update();
      matches++;
    }
    page.applyRedactions(true, mupdf.PDFPage.REDACT_IMAGE_PIXELS, mupdf.PDFPage.REDACT_LINE_ART_REMOVE_IF_COVERED, mupdf.PDFPage.REDACT_TEXT_REMOVE);
    page.destroy();
    pagesWithMatches++;
  });
  scrubbed.finish();
  // garbage collection drops the replaced content streams; no incremental update keeps the old ones
  const out = new Uint8Array(doc.saveToBuffer('garbage=deduplicate,compress,sanitize').asUint8Array());
  doc.destroy();
  return { pdf: out, matches, pagesWithMatches };
}

/**
 * Replaces matches in the strings applyRedactions leaves alone. Matching happens now
 * (inside the regex budget); form widgets are rewritten afterwards in `finish`, since
 * regenerating their appearances is mupdf work, not regex work.
 */
function scrubDocument(doc: Mupdf.PDFDocument, scrub: (v: string) => string): { finish(): void } {
  const trailer = doc.getTrailer();
  const info = trailer.get('Info');
  if (info.isDictionary()) {
    info.forEach((value, key) => {
      if (value.isString()) {
        const s = value.asString();
        const t = scrub(s);
        if (t !== s) info.put(key, doc.newString(t));
      }
    });
  }
  const root = trailer.get('Root');
  const metadata = root.get('Metadata');
  if (metadata.isStream()) {
    const xmp = metadata.readStream().asString();
    const t = scrubXmp(xmp, scrub);
    if (t !== xmp) metadata.writeStream(t);
  }
  // bookmarks: every outline item's title, walking First/Next with a guard against cycles
  const seen = new Set<number>();
  const walk = (item: Mupdf.PDFObject) => {
    while (item.isDictionary()) {
      const id = item.isIndirect() ? item.asIndirect() : -1;
      if (id >= 0) {
        if (seen.has(id)) return;
        seen.add(id);
      }
      const title = item.get('Title');
      if (title.isString()) {
        const s = title.asString();
        const t = scrub(s);
        if (t !== s) item.put('Title', doc.newString(t));
      }
      walk(item.get('First'));
      item = item.get('Next');
    }
  };
  const outlines = root.get('Outlines');
  if (outlines.isDictionary()) walk(outlines.get('First'));

  // form fields: values held in the field tree (V, DV), and annotation Contents
  const widgetsToRewrite: { page: number; name: string; value: string }[] = [];
  const fieldSeen = new Set<number>();
  const walkFields = (fields: Mupdf.PDFObject) => {
    if (!fields.isArray()) return;
    for (let i = 0; i < fields.length; i++) {
      const f = fields.get(i);
      if (!f.isDictionary()) continue;
      const id = f.isIndirect() ? f.asIndirect() : -1;
      if (id >= 0) {
        if (fieldSeen.has(id)) continue;
        fieldSeen.add(id);
      }
      for (const key of ['V', 'DV']) {
        const v = f.get(key);
        if (v.isString()) {
          const s = v.asString();
          const t = scrub(s);
          if (t !== s) f.put(key, doc.newString(t));
        }
      }
      walkFields(f.get('Kids'));
    }
  };
  const acroForm = root.get('AcroForm');
  if (acroForm.isDictionary()) walkFields(acroForm.get('Fields'));

  const pages = doc.countPages();
  for (let p = 0; p < pages; p++) {
    const page = doc.loadPage(p);
    for (const annot of page.getAnnotations()) {
      const obj = annot.getObject();
      const contents = obj.get('Contents');
      if (contents.isString()) {
        const s = contents.asString();
        const t = scrub(s);
        if (t !== s) obj.put('Contents', doc.newString(t));
      }
    }
    for (const widget of page.getWidgets()) {
      if (!(widget.isText() || widget.isChoice())) continue;
      const value = widget.getValue();
      const t = scrub(value);
      // the field value may already be scrubbed above, but the appearance stream still shows the old text
      if (t !== value || /\[REDACTED\]/.test(value)) widgetsToRewrite.push({ page: p, name: widget.getName(), value: t });
    }
    page.destroy();
  }
  return {
    finish() {
      for (const { page: p, name, value } of widgetsToRewrite) {
        const page = doc.loadPage(p);
        for (const widget of page.getWidgets()) {
          if (widget.getName() !== name) continue;
          if (widget.isText()) widget.setTextValue(value);
          else widget.setChoiceValue(value);
          widget.update();
        }
        page.destroy();
      }
    },
  };
}

/** Scrubs the packet's text nodes and attribute values, compared unescaped so `&amp;` hides nothing. */
function scrubXmp(xmp: string, scrub: (v: string) => string): string {
  const unescape = (s: string) =>
    s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (m, e: string) => {
      const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
      if (named[e.toLowerCase()]) return named[e.toLowerCase()] as string;
      const code = e[1]?.toLowerCase() === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    });
  const escape = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
  const fix = (raw: string) => {
    const text = unescape(raw);
    const t = scrub(text);
    return t === text ? raw : escape(t);
  };
  return xmp.replace(/>([^<]+)</g, (_m, text: string) => `>${fix(text)}<`).replace(/="([^"]*)"/g, (_m, v: string) => `="${fix(v)}"`);
}
