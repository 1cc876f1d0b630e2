import { ValidationError } from '../errors';
import type { FoundText } from '@firma-riesgo/pdf-core';
import type { PlacedField, TFieldInput } from './field-schemas';

/** Anchors are searched on the pages the signing page shows (the text budget of open-signing-page.ts). */
export const ANCHOR_MAX_PAGES = 100;
/** Matches collected at most, over every anchor and page: a field takes one, or every one with `anchor_all`. */
export const ANCHOR_MAX_HITS = 2_000;

type Box = PlacedField['resolved'][number]['box'];
const EPS = 1e-9;

function refuse(i: number, key: string, msg: string): never {
  throw new ValidationError([{ loc: ['body', 'fields', i, key], msg, type: 'value_error' }]);
}

function pagesOf(page: TFieldInput['page'], count: number, i: number): number[] | null {
  if (page === undefined) return null;
  if (page === 'last') return [count];
  if (page === 'all') return Array.from({ length: count }, (_, n) => n + 1);
  if (page > count) refuse(i, 'page', `page ${page} is beyond the document's ${count} page${count === 1 ? '' : 's'}`);
  return [page];
}

const inside = (b: Box) => b.x >= -EPS && b.y >= -EPS && b.x + b.w <= 1 + EPS && b.y + b.h <= 1 + EPS;
const round = (v: number) => Math.round(v * 1e6) / 1e6;
const rounded = (b: Box): Box => ({ x: round(b.x), y: round(b.y), w: round(b.w), h: round(b.h) });

/**
 * Resolves each field to the pages and boxes it occupies: `"last"`/`"all"` to page
 * numbers, anchors to the matches mupdf found (`found`, searched for `anchors(fields)`),
 * moved by `offset` and sized by `size`. A page beyond the document, an anchor not found
 * or a box that leaves the page answers 422 with the field's index in `loc`.
 */
export function placeFields(fields: TFieldInput[], pageCount: number, found: FoundText | null): PlacedField[] {
  const needles = anchorsOf(fields);
  return fields.map((f, i) => {
    const pages = pagesOf(f.page, pageCount, i);
    let resolved: PlacedField['resolved'];
    if (f.box) {
      resolved = pages!.map((page) => ({ page, box: rounded(f.box!) }));
    } else {
      const needle = needles.indexOf(f.anchor!);
      const hits = (found?.hits ?? []).filter((h) => h.needle === needle && (pages === null || pages.includes(h.page)));
      if (hits.length === 0) refuse(i, 'anchor', `"${f.anchor!.slice(0, 60)}" is not in the text of ${pages === null ? 'the document' : pages.length === 1 ? `page ${pages[0]}` : 'those pages'}`);
      resolved = (f.anchor_all ? hits : hits.slice(0, 1)).map((h) => {
        const box = { x: h.box.x + (f.offset?.x ?? 0), y: h.box.y + (f.offset?.y ?? 0), w: f.size?.w ?? h.box.w, h: f.size?.h ?? h.box.h };
        if (!inside(box)) refuse(i, f.offset || f.size ? 'offset' : 'anchor', `placed at the match on page ${h.page}, the box lies outside the page`);
        return { page: h.page, box: rounded(box) };
      });
    }
    return {
      name: f.name ?? `campo_${i + 1}`,
      type: f.type,
      label: f.type === 'text' || f.type === 'checkbox' ? f.label : null,
      required: f.type === 'text' || f.type === 'checkbox' ? f.required : true,
      max_length: f.type === 'text' ? f.max_length : null,
      pattern: f.type === 'text' ? (f.pattern ?? null) : null,
      resolved,
    };
  });
}

/** The distinct anchor strings of the fields, in order: the needles mupdf looks for. */
export function anchorsOf(fields: TFieldInput[]): string[] {
  return [...new Set(fields.flatMap((f) => (f.anchor ? [f.anchor] : [])))];
}

const overlap = (a: Box, b: Box) => a.x < b.x + b.w - EPS && b.x < a.x + a.w - EPS && a.y < b.y + b.h - EPS && b.y < a.y + a.h - EPS;

/** 422 when one of these fields overlaps a field of another recipient of the same document (same page, boxes intersecting). */
export function assertNoOverlap(fields: PlacedField[], others: PlacedField[][]): void {
  fields.forEach((f, i) => {
    for (const mine of f.resolved) {
      for (const theirs of others.flat().flatMap((o) => o.resolved)) {
        if (mine.page === theirs.page && overlap(mine.box, theirs.box)) {
          refuse(i, 'box', `on page ${mine.page} it overlaps a field of another recipient of this document`);
        }
      }
    }
  });
}
