import { readFileSync } from 'node:fs';
import { FONT_FILES, loadFontCoverage, type FontCoverage } from './fonts';
import { chartContent } from './render-chart';
import type { LayoutBlock, LayoutDocument, LayoutInline } from './layout-document';

/**
 * Lays a LayoutDocument out on A4 pages with pdfmake (on pdfkit): real, selectable text
 * in embedded, subset fonts; table headers repeated on every page; an optional header
 * line and a footer with the page number and count on every page; charts as vector
 * paths (render-chart.ts); metadata and /Lang; tagged. Synchronous CPU work: it runs on the worker pool (op `render-layout`), never on
 * the request thread.
 */

/** The parts of pdfmake's document definition used here (its @types package pulls in the DOM lib). */
type Content = Record<string, unknown> | Content[];
type TDocumentDefinitions = Record<string, unknown>;

interface PdfMake {
  virtualfs: { writeFileSync(name: string, data: Buffer): void };
  setFonts(fonts: Record<string, Record<string, string>>): void;
  setUrlAccessPolicy(policy: (url: string) => boolean): void;
  setLocalAccessPolicy(policy: (path: string) => boolean): void;
  createPdf(doc: TDocumentDefinitions): { getBuffer(): Promise<Buffer> };
}

const MAIN = 'Main';
const FALLBACK = 'Fallback';
/** 2 cm margins, in points; the bottom one leaves room for the footer. */
const MARGINS: [number, number, number, number] = [56.7, 56.7, 56.7, 70];
/** A4's width less the side margins: what a chart may take. */
const CONTENT_WIDTH = 595.28 - MARGINS[0] - MARGINS[2];
const PRODUCER = 'firma-riesgo (pdfmake)';

interface Engine {
  pdfmake: PdfMake;
  coverage: FontCoverage;
}

let engine: Engine | undefined;

/**
 * pdfmake is a module-level singleton. The fonts are read once into its virtual file
 * system, and every other file or URL access is refused: nothing in a document can
 * make the renderer read a file or reach the network (an svg block's text opens the
 * same font files by their paths, which the document does not choose).
 */
function loadEngine(): Engine {
  if (engine) return engine;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pdfmake = require('pdfmake') as PdfMake;
  const families: Record<string, Record<string, string>> = {};
  for (const [role, family] of [['main', MAIN], ['fallback', FALLBACK]] as const) {
    families[family] = {};
    for (const [style, file] of Object.entries(FONT_FILES[role])) {
      // Named by its real path: pdfmake reads the copy in its virtual file system, and the text of
      // an svg block (svg-to-pdfkit, which opens fonts through pdfkit) finds the same file.
      pdfmake.virtualfs.writeFileSync(file, readFileSync(file));
      families[family][style] = file;
    }
  }
  pdfmake.setFonts(families);
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  engine = { pdfmake, coverage: loadFontCoverage() };
  return engine;
}

/**
 * pdfmake text runs: one per stretch of one style and font. Adjacent inlines of the same
 * style are joined first; separate runs would let text extractors put a space between
 * "3" and "." where a value meets the template's text.
 */
function inlines(coverage: FontCoverage, content: LayoutInline[]): Content[] {
  const joined: LayoutInline[] = [];
  for (const inline of content) {
    const last = joined[joined.length - 1];
    if (last && Boolean(last.bold) === Boolean(inline.bold) && Boolean(last.italic) === Boolean(inline.italic)) last.text += inline.text;
    else joined.push({ ...inline });
  }
  return joined.flatMap((inline) =>
    coverage.runs(inline.text).map((run) => ({
      text: run.text,
      // Only when set: a run's `bold: false` would override a heading's or a header row's style.
      ...(inline.bold ? { bold: true } : {}),
      ...(inline.italic ? { italics: true } : {}),
      ...(run.font === 'fallback' ? { font: FALLBACK } : {}),
    })),
  );
}

/** Anything in an SVG that could load, link or run something, or style it from outside its own attributes. */
const SVG_REACHING_OUT = /<\s*(?:image|use|a|script|style|foreignObject|feImage)\b|\bhref\s*=|url\s*\(|<!ENTITY|<!DOCTYPE/i;

/** The SVG of an `svg` block, refused (a thrown error) unless it is a self-contained drawing with its size. */
function selfContainedSvg(svg: string): string {
  if (SVG_REACHING_OUT.test(svg)) throw new Error('svg block: only self-contained drawings (no images, links, scripts, styles, entities or url())');
  if (!/^\s*<svg\b[^>]*\swidth="[\d.]+"[^>]*\sheight="[\d.]+"/.test(svg)) throw new Error('svg block: the root <svg> needs numeric width and height');
  return svg;
}

/** pdfmake's lightHorizontalLines with 3 pt instead of 8 pt either side of a cell: for tables of many columns. */
const COMPACT_TABLE = {
  hLineWidth: (i: number, node: { table: { body: unknown[]; headerRows: number } }) => (i === 0 || i === node.table.body.length ? 0 : i === node.table.headerRows ? 2 : 1),
  vLineWidth: () => 0,
  hLineColor: (i: number) => (i === 1 ? 'black' : '#aaa'),
  paddingLeft: (i: number) => (i === 0 ? 0 : 3),
  paddingRight: (i: number, node: { table: { widths: unknown[] } }) => (i === node.table.widths.length - 1 ? 0 : 3),
};

function block(coverage: FontCoverage, b: LayoutBlock): Content {
  const text = (content: LayoutInline[]) => inlines(coverage, content);
  switch (b.type) {
    case 'title':
      return { text: text(b.content), style: 'title', headlineLevel: 1 };
    case 'heading':
      return { text: text(b.content), style: b.level === 2 ? 'heading' : 'subheading', headlineLevel: b.level };
    case 'paragraph':
      return { text: text(b.content), style: 'paragraph' };
    case 'list':
      return { ul: b.items.map((item) => ({ text: text(item) })), style: 'list' };
    case 'table': {
      const columns = Math.max(b.align.length, 1);
      const cell = (content: LayoutInline[] | undefined, i: number, header: boolean) => ({
        text: text(content ?? []),
        alignment: header ? 'left' : (b.align[i] ?? 'left'),
        bold: header,
      });
      const row = (cells: LayoutInline[][], header: boolean) =>
        Array.from({ length: columns }, (_, i) => cell(cells[i], i, header));
      return {
        table: {
          headerRows: 1,
          keepWithHeaderRows: 1,
          dontBreakRows: true,
          // The first left-aligned column (the text one, e.g. a concept) takes the free width.
          widths: Array.from({ length: columns }, (_, i) => (i === Math.max(b.align.indexOf('left'), 0) ? '*' : 'auto')),
          body: [row(b.header, true), ...b.rows.map((r) => row(r, false))],
        },
        layout: b.compact ? COMPACT_TABLE : 'lightHorizontalLines',
        style: b.compact ? ['table', 'compactTable'] : 'table',
      };
    }
    case 'signatures': {
      const box = (s: { label: LayoutInline[]; name: LayoutInline[] }): Content => ({
        stack: [
          { text: text(s.label), bold: true },
          { canvas: [{ type: 'line', x1: 0, y1: 48, x2: 200, y2: 48, lineWidth: 0.6 }] },
          { text: text(s.name), margin: [0, 4, 0, 0] },
        ],
      });
      const rows: Content[] = [];
      for (let i = 0; i < b.boxes.length; i += 2) {
        const pair = b.boxes.slice(i, i + 2).map(box);
        rows.push({ columns: pair.length === 2 ? pair : [...pair, { text: '' }], columnGap: 24, margin: [0, 0, 0, 18] });
      }
      return { stack: rows, unbreakable: true, margin: [0, 24, 0, 0] };
    }
    case 'chart':
      return chartContent(b, CONTENT_WIDTH, text);
    case 'svg':
      return {
        stack: [
          { svg: selfContainedSvg(b.svg), width: Math.min(b.width ?? CONTENT_WIDTH, CONTENT_WIDTH), font: MAIN },
          { text: text(b.caption), style: 'paragraph', margin: [0, 6, 0, 0] },
        ],
        unbreakable: true,
      };
    case 'page-break':
      return { text: '', pageBreak: 'after' };
  }
}

export function layoutDefinition(doc: LayoutDocument, coverage: FontCoverage): TDocumentDefinitions {
  const { metadata } = doc;
  return {
    pageSize: 'A4',
    pageMargins: MARGINS,
    language: metadata.language,
    version: '1.7',
    tagged: true,
    displayTitle: true,
    info: {
      title: metadata.title,
      author: metadata.author,
      subject: metadata.subject,
      keywords: metadata.keywords?.join(', '),
      creator: metadata.producer ?? PRODUCER,
      producer: metadata.producer ?? PRODUCER,
      creationDate: new Date(metadata.creationDate),
      modDate: new Date(metadata.creationDate),
    },
    defaultStyle: { font: MAIN, fontSize: 10.5, lineHeight: 1.25 },
    styles: {
      title: { fontSize: 15, bold: true, alignment: 'center', margin: [0, 0, 0, 14] },
      heading: { fontSize: 11.5, bold: true, margin: [0, 12, 0, 6] },
      subheading: { fontSize: 10.5, bold: true, italics: true, margin: [0, 8, 0, 4] },
      paragraph: { alignment: 'justify', margin: [0, 0, 0, 7] },
      list: { margin: [8, 0, 0, 7] },
      table: { fontSize: 9.5, margin: [0, 4, 0, 10] },
      caption: { fontSize: 9.5, margin: [0, 2, 0, 0] },
      compactTable: { fontSize: 8.5 },
      header: { alignment: 'center', fontSize: 8, color: '#444444', margin: [56.7, 28, 56.7, 0] },
      footer: { alignment: 'center', fontSize: 8.5, margin: [0, 28, 0, 0] },
    },
    ...(doc.header ? { header: () => ({ text: inlines(coverage, [{ text: doc.header! }]), style: 'header' }) } : {}),
    footer: (page: number, total: number) => ({
      text: inlines(coverage, [{ text: doc.footer.replace('{page}', String(page)).replace('{total}', String(total)) }]),
      style: 'footer',
    }),
    // A heading is never the last thing on a page: it moves to the next with its text.
    // (The page's footer and header are among the nodes that follow it there, and do not count.)
    pageBreakBefore: (node: { headlineLevel?: number }, query: { getFollowingNodesOnPage(): { style?: unknown }[] }) =>
      node.headlineLevel !== undefined && query.getFollowingNodesOnPage().every((n) => n.style === 'footer' || n.style === 'header'),
    content: doc.blocks.map((b) => block(coverage, b)),
  };
}

export async function renderLayout(doc: LayoutDocument): Promise<Uint8Array> {
  const { pdfmake, coverage } = loadEngine();
  const buffer = await pdfmake.createPdf(layoutDefinition(doc, coverage)).getBuffer();
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
