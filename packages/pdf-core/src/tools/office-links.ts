import { DOMParser, XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { PdfInputError } from './errors';

/**
 * Strips what makes LibreOffice fetch or read something outside the document while it
 * converts (server-side request forgery, local file disclosure) from an OOXML
 * (.docx/.xlsx/.pptx) or ODF (.odt/.ods/.odp) package, before conversion:
 *
 * - OOXML: relationships with TargetMode="External" (remote or file:// pictures,
 *   templates, linked OLE objects, external workbooks, subdocuments) except plain
 *   http(s)/mailto hyperlinks, which LibreOffice only writes into the PDF as links;
 *   embedded OLE objects (`embeddings/`: they can carry links of their own; the picture
 *   that stands for them stays); field instructions that include or link other files
 *   (INCLUDEPICTURE, INCLUDETEXT, LINK, DDE, DDEAUTO, IMPORT, INCLUDE): the field keeps
 *   its last result; DDE and OLE links of external workbooks.
 * - ODF: every xlink:href (and svg/font URI) that leaves the package (a scheme, an
 *   absolute path, `..`), except http(s)/mailto hyperlinks (text:a, draw:a); linked
 *   sections and tables, DDE connections, floating frames, plugins, applets; embedded
 *   OLE binaries.
 *
 * Parts are parsed with an XML parser, never matched as text; a part that does not parse
 * makes the document invalid (422). The LibreOffice profile (office.ts) and the engine
 * sandbox refuse the same things again: this is the first of three layers.
 */

export type OfficePackageKind = 'ooxml' | 'odf';

export interface StripLinksArgs {
  data: Uint8Array;
  kind: OfficePackageKind;
}

export interface StripLinksResult {
  data: Uint8Array;
  /** How many links, fields, objects and parts were removed (0: the package was returned as it came). */
  removed: number;
}

/** Unpacked size above which a package is refused: a zip bomb would exhaust memory. */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;
export const MAX_PACKAGE_ENTRIES = 20_000;

const NS = {
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

const HYPERLINK_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink';
/** Word fields that pull another file, picture or program's data into the document. */
const LINKING_FIELDS = /^\s*(INCLUDEPICTURE|INCLUDETEXT|INCLUDE|LINK|DDE|DDEAUTO|IMPORT)\b/i;
const SAFE_LINK = /^(https?:|mailto:)/i;
/** ODF elements whose only purpose is to pull content from elsewhere: removed with their children. */
const ODF_LINK_ELEMENTS: Array<[string, string]> = [
  [NS.text, 'section-source'],
  [NS.text, 'dde-connection-decls'],
  [NS.text, 'dde-connection'],
  [NS.table, 'table-source'],
  [NS.table, 'cell-range-source'],
  [NS.table, 'dde-links'],
  [NS.office, 'dde-source'],
  [NS.draw, 'floating-frame'],
  [NS.draw, 'plugin'],
  [NS.draw, 'applet'],
];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export function stripOfficeLinks({ data, kind }: StripLinksArgs): StripLinksResult {
  const files = unpack(data);
  const removed = kind === 'ooxml' ? stripOoxml(files) : stripOdf(files);
  if (removed === 0) return { data, removed };
  const zippable: Zippable = {};
  for (const [name, file] of files) {
    // ODF: "mimetype" first and stored, as the format requires (Map keeps the original order)
    zippable[name] = [file.bytes, { level: name === 'mimetype' ? 0 : 6 }];
  }
  return { data: zipSync(zippable), removed };
}

interface PackageFile {
  bytes: Uint8Array;
}

type Files = Map<string, PackageFile>;

const invalid = (msg: string) => new PdfInputError('file', msg, 'document_invalid');

function unpack(data: Uint8Array): Files {
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

function parse(name: string, bytes: Uint8Array): Document {
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

function serialise(doc: Document): Uint8Array {
  const xml = new XMLSerializer().serializeToString(doc);
  return new Uint8Array(Buffer.from(xml.startsWith('<?xml') ? xml : `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${xml}`, 'utf8'));
}

/** Parses, edits and writes back one part; `edit` returns how much it removed. */
function rewrite(files: Files, name: string, edit: (doc: Document) => number): number {
  const file = files.get(name);
  if (!file) return 0;
  const doc = parse(name, file.bytes);
  const removed = edit(doc);
  if (removed > 0) file.bytes = serialise(doc);
  return removed;
}

function elements(doc: Document | Element, ns: string, local: string): Element[] {
  return Array.from(doc.getElementsByTagNameNS(ns, local) as unknown as ArrayLike<Element>);
}

function allElements(doc: Document): Element[] {
  return Array.from(doc.getElementsByTagName('*') as unknown as ArrayLike<Element>);
}

function remove(node: Node): void {
  node.parentNode?.removeChild(node);
}

const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);
const isOle = (bytes: Uint8Array) => OLE_MAGIC.every((b, i) => bytes[i] === b);

// ---------- OOXML ----------

function stripOoxml(files: Files): number {
  let removed = 0;
  const dropped = new Set<string>();
  // embedded objects (OLE compound files, nested packages): their links are out of reach
  for (const name of [...files.keys()]) {
    if (/(^|\/)embeddings\//i.test(name)) {
      files.delete(name);
      dropped.add(name);
      removed++;
    }
  }
  for (const name of [...files.keys()]) {
    if (/\.rels$/i.test(name)) removed += rewrite(files, name, (doc) => stripRelationships(doc, name, dropped));
  }
  for (const name of [...files.keys()]) {
    if (!isXmlPart(name) || /\.rels$/i.test(name)) continue;
    removed += rewrite(files, name, (doc) => (name === '[Content_Types].xml' ? dropContentTypes(doc, dropped) : stripOoxmlPart(doc)));
  }
  return removed;
}

/** External targets other than plain hyperlinks, and relationships to dropped parts. */
function stripRelationships(doc: Document, relsName: string, dropped: Set<string>): number {
  let removed = 0;
  const base = relsName.replace(/(^|\/)_rels\/[^/]*$/, '$1');
  for (const rel of elements(doc, NS.rels, 'Relationship')) {
    const target = rel.getAttribute('Target') ?? '';
    // a URI or UNC target is outside the package whatever TargetMode says
    const external = (rel.getAttribute('TargetMode') ?? '').toLowerCase() === 'external' || /^([a-z][a-z0-9+.-]*:|\\\\|\/\/)/i.test(target.trim());
    if (external) {
      if (rel.getAttribute('Type') === HYPERLINK_REL && SAFE_LINK.test(target.trim())) continue;
      remove(rel);
      removed++;
    } else if (dropped.has(resolvePart(base, target))) {
      remove(rel);
      removed++;
    }
  }
  return removed;
}

/** A relationship's internal target as a package path (no leading slash). */
function resolvePart(base: string, target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : `${base}${target}`;
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  return decodeURIComponentSafe(out.join('/'));
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function dropContentTypes(doc: Document, dropped: Set<string>): number {
  let removed = 0;
  for (const override of elements(doc, NS.contentTypes, 'Override')) {
    if (dropped.has((override.getAttribute('PartName') ?? '').replace(/^\//, ''))) {
      remove(override);
      removed++;
    }
  }
  return removed;
}

function stripOoxmlPart(doc: Document): number {
  let removed = stripWordFields(doc);
  // simple fields: keep the result, drop the instruction
  for (const field of elements(doc, NS.w, 'fldSimple')) {
    if (!LINKING_FIELDS.test(field.getAttributeNS(NS.w, 'instr') ?? '')) continue;
    while (field.firstChild) field.parentNode?.insertBefore(field.firstChild, field);
    remove(field);
    removed++;
  }
  // VML OLE objects (linked or embedded): the shape's picture stays
  for (const ole of elements(doc, NS.vmlOffice, 'OLEObject')) {
    remove(ole);
    removed++;
  }
  // external workbooks' DDE and OLE links
  for (const local of ['ddeLink', 'oleLink']) {
    for (const link of elements(doc, NS.sml, local)) {
      remove(link);
      removed++;
    }
  }
  // VML's o:href / src and the like pointing outside the package
  for (const element of allElements(doc)) {
    for (const attr of Array.from(element.attributes as unknown as ArrayLike<{ localName: string; name: string; value: string }>)) {
      if ((attr.localName === 'href' || attr.localName === 'src') && leavesPackage(attr.value)) {
        element.removeAttribute(attr.name);
        removed++;
      }
    }
  }
  return removed;
}

/**
 * Complex fields (fldChar begin / instrText... / separate / result / end): the
 * instruction may be split over several runs, so it is collected per field (fields
 * nest) before it is judged. A linking field loses its instruction and keeps its result.
 */
function stripWordFields(doc: Document): number {
  const stack: Array<{ parts: Element[]; judged: boolean }> = [];
  let removed = 0;
  const judge = (field: { parts: Element[]; judged: boolean }) => {
    if (field.judged) return;
    field.judged = true;
    if (!LINKING_FIELDS.test(field.parts.map((p) => p.textContent ?? '').join(''))) return;
    for (const part of field.parts) remove(part);
    removed++;
  };
  for (const element of allElements(doc)) {
    if (element.namespaceURI !== NS.w) continue;
    if (element.localName === 'fldChar') {
      const type = element.getAttributeNS(NS.w, 'fldCharType');
      if (type === 'begin') stack.push({ parts: [], judged: false });
      else if (type === 'separate' && stack.length > 0) judge(stack[stack.length - 1]!);
      else if (type === 'end' && stack.length > 0) judge(stack.pop()!);
    } else if (element.localName === 'instrText' && stack.length > 0) {
      stack[stack.length - 1]!.parts.push(element);
    }
  }
  for (const field of stack) judge(field);
  return removed;
}

// ---------- ODF ----------

function stripOdf(files: Files): number {
  let removed = 0;
  const dropped = new Set<string>();
  for (const [name, file] of [...files]) {
    if (!isXmlPart(name) && isOle(file.bytes)) {
      files.delete(name);
      dropped.add(name);
      removed++;
    }
  }
  for (const name of [...files.keys()]) {
    if (!isXmlPart(name)) continue;
    removed += rewrite(files, name, (doc) => (name === 'META-INF/manifest.xml' ? dropManifestEntries(doc, dropped) : stripOdfPart(doc)));
  }
  return removed;
}

function dropManifestEntries(doc: Document, dropped: Set<string>): number {
  let removed = 0;
  for (const entry of elements(doc, NS.manifest, 'file-entry')) {
    if (dropped.has(entry.getAttributeNS(NS.manifest, 'full-path') ?? '')) {
      remove(entry);
      removed++;
    }
  }
  return removed;
}

function stripOdfPart(doc: Document): number {
  let removed = 0;
  for (const [ns, local] of ODF_LINK_ELEMENTS) {
    for (const element of elements(doc, ns, local)) {
      remove(element);
      removed++;
    }
  }
  for (const element of allElements(doc)) {
    for (const attr of Array.from(element.attributes as unknown as ArrayLike<{ namespaceURI: string | null; localName: string; name: string; value: string }>)) {
      const link = (attr.namespaceURI === NS.xlink && attr.localName === 'href') || (attr.namespaceURI === NS.svg && attr.localName === 'font-face-uri');
      if (!link || !leavesPackage(attr.value)) continue;
      const hyperlink = (element.namespaceURI === NS.text || element.namespaceURI === NS.draw) && element.localName === 'a';
      if (hyperlink && SAFE_LINK.test(attr.value.trim())) continue;
      element.removeAttributeNode(element.getAttributeNode(attr.name)!);
      removed++;
    }
  }
  return removed;
}

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
