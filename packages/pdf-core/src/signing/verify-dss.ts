import { inflateSync } from 'node:zlib';

/**
 * The validation data a file's DSS holds (ISO 32000-2 §12.8.4.3), read as bytes like the
 * rest of verification: each `/Type /DSS` dictionary's /Certs, /OCSPs and /CRLs arrays of
 * references, each reference's latest `N G obj ... stream` read by its /Length. The offset
 * of each stream says which document timestamps cover it (their byte ranges end after it).
 * Bounded: a hostile file costs at most MAX_ITEMS streams of at most MAX_ITEM_BYTES, and
 * MAX_TOTAL_BYTES in all.
 */

export interface DssItem {
  kind: 'cert' | 'ocsp' | 'crl';
  der: Buffer;
  /** Offset of the stream's object in the file. */
  offset: number;
}

const MAX_DSS_DICTIONARIES = 64;
const MAX_ITEMS = 256;
const MAX_ITEM_BYTES = 1024 * 1024;
/** Bytes of DSS items read in all (inflated). */
const MAX_TOTAL_BYTES = 16 * 1024 * 1024;
const DSS_WINDOW = 64 * 1024;
const KEYS = { Certs: 'cert', OCSPs: 'ocsp', CRLs: 'crl' } as const;

export function readDssItems(pdf: Buffer, text: string): DssItem[] {
  const items: DssItem[] = [];
  const seen = new Set<string>();
  let objects: Map<string, number> | null = null;
  let total = 0;
  const dssType = /\/Type\s*\/DSS\b/g;
  for (let m = dssType.exec(text), count = 0; m && count < MAX_DSS_DICTIONARIES; m = dssType.exec(text), count++) {
    // The dictionary around the match: from its `obj` (or the `<<` before it) to the `endobj` after it.
    const from = Math.max(text.lastIndexOf('obj', m.index), m.index - DSS_WINDOW, 0);
    const endobj = text.indexOf('endobj', m.index);
    const dict = text.slice(from, endobj === -1 ? Math.min(text.length, m.index + DSS_WINDOW) : Math.min(endobj, m.index + DSS_WINDOW));
    for (const [key, kind] of Object.entries(KEYS)) {
      const array = new RegExp(`/${key}\\s*\\[([^\\]]*)\\]`).exec(dict);
      if (!array) continue;
      for (const ref of array[1]!.matchAll(/(\d+)\s+(\d+)\s+R/g)) {
        if (items.length >= MAX_ITEMS) return items;
        const id = `${kind} ${ref[1]} ${ref[2]}`;
        if (seen.has(id)) continue;
        seen.add(id);
        objects ??= objectOffsets(text);
        const offset = objects.get(`${ref[1]} ${ref[2]}`);
        const item = offset === undefined ? null : readStream(pdf, text, offset);
        if (!item) continue;
        total += item.der.length;
        if (total > MAX_TOTAL_BYTES) return items;
        items.push({ kind, ...item });
      }
    }
  }
  return items;
}

/** Offset of each object's latest definition (`N G obj`), in one linear scan. */
function objectOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  const header = /(?<![0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b/g;
  for (let m = header.exec(text); m; m = header.exec(text)) offsets.set(`${m[1]} ${m[2]}`, m.index);
  return offsets;
}

/** The object at `offset` when it is a stream with a direct /Length. */
function readStream(pdf: Buffer, text: string, offset: number): { der: Buffer; offset: number } | null {
  const head = text.slice(offset, offset + 512);
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(head);
  const stream = /stream\r?\n/.exec(head);
  if (!length || !stream) return null;
  const size = Number(length[1]);
  if (size > MAX_ITEM_BYTES) return null;
  const start = offset + stream.index + stream[0].length;
  if (start + size > pdf.length) return null;
  let der = Buffer.from(pdf.subarray(start, start + size));
  const filter = /\/Filter\s*(\/\w+|\[\s*\/\w+\s*\])/.exec(head.slice(0, stream.index))?.[1];
  if (filter) {
    if (!filter.includes('FlateDecode')) return null;
    try {
      der = inflateSync(der, { maxOutputLength: MAX_ITEM_BYTES });
    } catch {
      return null;
    }
  }
  return { der, offset };
}
