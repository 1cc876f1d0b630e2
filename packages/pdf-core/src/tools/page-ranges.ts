import { PdfInputError } from './errors';

const ITEM = /^(\d{1,6})(?:\s*(-)\s*(\d{1,6})?)?$/;

/**
 * Parses a page selection such as `1-3, 5, 8-` (1-based; `N-` runs to the last page)
 * into one list of page numbers per comma-separated item, each checked against the
 * document's page count. Errors name the field and the offending item.
 */
export function parsePageRanges(spec: string, pageCount: number, field: string): number[][] {
  const items = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0) throw new PdfInputError(field, 'No pages selected', 'pages_empty');
  return items.map((item) => {
    const m = ITEM.exec(item);
    if (!m) throw new PdfInputError(field, `"${item.slice(0, 40)}" is not a page or a range like 2-5`, 'pages_syntax');
    const from = Number(m[1]);
    const to = m[2] ? (m[3] !== undefined ? Number(m[3]) : pageCount) : from;
    for (const n of [from, to]) {
      if (n < 1 || n > pageCount) {
        throw new PdfInputError(field, `Page ${n} is out of range: the document has ${pageCount} page${pageCount === 1 ? '' : 's'}`, 'page_out_of_range');
      }
    }
    if (to < from) throw new PdfInputError(field, `Range "${item}" runs backwards`, 'pages_syntax');
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

/**
 * The selection in qpdf's own page syntax, without the page count (`8-` becomes `8-z`), for a
 * run that starts before the count is known; null when an item is not a page or a range
 * (parsePageRanges words that refusal) or runs backwards (qpdf would take it in reverse;
 * parsePageRanges refuses it). The same pages in the same order as parsePageList gives
 * whenever that accepts the selection.
 */
export function qpdfPageSpec(spec: string): string | null {
  const items = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0) return null;
  const out: string[] = [];
  for (const item of items) {
    const m = ITEM.exec(item);
    if (!m) return null;
    const from = Number(m[1]);
    if (!m[2]) out.push(String(from));
    else if (m[3] === undefined) out.push(`${from}-z`);
    else if (Number(m[3]) < from) return null;
    else out.push(`${from}-${Number(m[3])}`);
  }
  return out.join(',');
}

/** A flat selection (`1,3,5-7`) in the order given. */
export function parsePageList(spec: string, pageCount: number, field: string): number[] {
  return parsePageRanges(spec, pageCount, field).flat();
}

/** Compact text form of a sorted run of pages, e.g. [1,2,3,5] -> "1-3,5". */
export function formatPageList(pages: number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < pages.length) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === (pages[j] as number) + 1) j++;
    parts.push(i === j ? String(pages[i]) : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
