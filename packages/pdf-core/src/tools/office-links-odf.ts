import type { Document } from '@xmldom/xmldom';
import { allElements, elements, isOle, isXmlPart, leavesPackage, NS, remove, rewrite, SAFE_LINK, type Files } from './office-package';

/** ODF (.odt/.ods/.odp): hrefs that leave the package, linked sections and tables, frames, OLE binaries (see office-links.ts). */

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

export function stripOdf(files: Files): number {
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
