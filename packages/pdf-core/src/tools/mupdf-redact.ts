import type * as Mupdf from 'mupdf/dist/mupdf';
import { openPdf, type MupdfModule } from './mupdf-document';
import { REDACTED, scrubDocument } from './mupdf-redact-scrub';
import type { RedactArgs, RedactResult } from './worker-protocol';

/**
 * Redaction with mupdf: find the patterns in each page's text, black out and remove what
 * lies under each match. Runs only inside the worker threads (pdf-worker.ts).
 */

/** Tells the pool that a phase with its own time budget starts (ms) or ends (null). */
export type DeadlineSignal = (ms: number | null) => void;

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
