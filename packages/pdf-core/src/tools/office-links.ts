import { zipSync, type Zippable } from 'fflate';
import { stripOdf } from './office-links-odf';
import { stripOoxml } from './office-links-ooxml';
import { unpack } from './office-package';

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
