import { DOMParser, XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { unzipSync } from 'fflate';
import { PdfInputError } from './errors';

// An office package (an OOXML or ODF zip) unpacked, and the XML helpers the link strippers share.

/** Unpacked size above which a package is refused: a zip bomb would exhaust memory. */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;
export const MAX_PACKAGE_ENTRIES = 20_000;

/** The XML namespaces the strippers look in. */
export const NS = {
  rels: 'http://schemas.openxmlformats.org/package/2006/relationships',
  contentTypes: 'http://schemas.openxmlformats.org/package/2006/content-types',
  w: 'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  xlink: 'http://www.w3.org/1999/xlink',
  manifest: 'urn:oasis:names:tc:opendocument:xmlns:manifest:1.0',
  text: 'urn:oasis:names:tc:opendocument:xmlns:text:1.0',
  table: 'urn:oasis:names:tc:opendocument:xmlns:table:1.0',
  draw: 'urn:oasis:names:tc:opendocument:xmlns:drawing:1.0',
  office: 'urn:oasis:names:tc:opendocument:xmlns:office:1.0',
  svg: 'urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0',
  vmlOffice: 'urn:schemas-microsoft-com:office:office',
  sml: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
};

/** Links LibreOffice only writes into the PDF as links, never fetches. */
export const SAFE_LINK = /^(https?:|mailto:)/i;
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export interface PackageFile {
  bytes: Uint8Array;
}

export type Files = Map<string, PackageFile>;

export const invalid = (msg: string) => new PdfInputError('file', msg, 'document_invalid');

export function unpack(data: Uint8Array): Files {
  let entries = 0;
  let total = 0;
  let raw: Record<string, Uint8Array>;
  try {
    raw = unzipSync(data, {
      // sizes as the archive declares them: fflate never inflates past the declared size
      filter(file) {
        entries++;
        total += file.originalSize;
        if (entries > MAX_PACKAGE_ENTRIES || total > MAX_UNPACKED_BYTES) throw new PackageTooLarge();
        return true;
      },
    });
  } catch (err) {
    if (err instanceof PackageTooLarge) {
      throw invalid(`The document unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB or ${MAX_PACKAGE_ENTRIES} parts`);
    }
    throw invalid('The document is not a readable zip package');
  }
  const files: Files = new Map();
  for (const [name, bytes] of Object.entries(raw)) files.set(name, { bytes });
  return files;
}

class PackageTooLarge extends Error {}

export function parse(name: string, bytes: Uint8Array): Document {
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw invalid(`Part "${name}" of the document is not well-formed XML: ${message.split('\n')[0]}`);
    },
  });
  try {
    return parser.parseFromString(Buffer.from(bytes).toString('utf8'), 'text/xml');
  } catch (err) {
    if (err instanceof PdfInputError) throw err;
    throw invalid(`Part "${name}" of the document is not well-formed XML`);
  }
}

export function serialise(doc: Document): Uint8Array {
  const xml = new XMLSerializer().serializeToString(doc);
  return new Uint8Array(Buffer.from(xml.startsWith('<?xml') ? xml : `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${xml}`, 'utf8'));
}

/** Parses, edits and writes back one part; `edit` returns how much it removed. */
export function rewrite(files: Files, name: string, edit: (doc: Document) => number): number {
  const file = files.get(name);
  if (!file) return 0;
  const doc = parse(name, file.bytes);
  const removed = edit(doc);
  if (removed > 0) file.bytes = serialise(doc);
  return removed;
}

export function elements(doc: Document | Element, ns: string, local: string): Element[] {
  return Array.from(doc.getElementsByTagNameNS(ns, local) as unknown as ArrayLike<Element>);
}

export function allElements(doc: Document): Element[] {
  return Array.from(doc.getElementsByTagName('*') as unknown as ArrayLike<Element>);
}

export function remove(node: Node): void {
  node.parentNode?.removeChild(node);
}

export const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);
export const isOle = (bytes: Uint8Array) => OLE_MAGIC.every((b, i) => bytes[i] === b);

/**
 * A reference that is not a part of this package: a URI with a scheme (http:, file:,
 * smb:, vnd.sun.star.*...), an absolute or UNC path, or a relative one that climbs out
 * with "..". Fragments ("#Sheet1.A1") and package paths ("Pictures/1.png", "./Object 1") stay.
 */
export function leavesPackage(value: string): boolean {
  const v = value.trim();
  if (v === '' || v.startsWith('#')) return false;
  if (/^[a-z][a-z0-9+.-]*:/i.test(v)) return true;
  if (v.startsWith('/') || v.startsWith('\\')) return true;
  return v.split(/[/\\]/).includes('..');
}
