import type { Document, Element } from '@xmldom/xmldom';
import { allElements, elements, isOle, isXmlPart, leavesPackage, NS, remove, rewrite, SAFE_LINK, type Files } from './office-package';

/** OOXML (.docx/.xlsx/.pptx): external relationships, embedded OLE objects and linking fields (see office-links.ts). */

const HYPERLINK_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink';
/** Word fields that pull another file, picture or program's data into the document. */
const LINKING_FIELDS = /^\s*(INCLUDEPICTURE|INCLUDETEXT|INCLUDE|LINK|DDE|DDEAUTO|IMPORT)\b/i;

export function stripOoxml(files: Files): number {
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
