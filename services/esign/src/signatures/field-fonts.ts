import { readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { SANS_FONT_FILES } from '@firma-riesgo/pdf-core';
import type { PDFDocument, PDFFont } from 'pdf-lib';

export interface FieldFonts {
  regular: PDFFont;
  oblique: PDFFont;
}

let files: { regular: Uint8Array; oblique: Uint8Array } | null = null;

/**
 * The faces fields are drawn in, DejaVu Sans and its oblique, embedded as subsets (only
 * the glyphs the values use), so a value in any script DejaVu covers (ñ, ç, ł, €, Greek,
 * Cyrillic) is drawn as typed and every reader shows the same glyphs. The files are read
 * once per process.
 */
export async function embedFieldFonts(doc: PDFDocument): Promise<FieldFonts> {
  files ??= { regular: readFileSync(SANS_FONT_FILES.regular), oblique: readFileSync(SANS_FONT_FILES.oblique) };
  doc.registerFontkit(fontkit);
  const [regular, oblique] = await Promise.all([doc.embedFont(files.regular, { subset: true }), doc.embedFont(files.oblique, { subset: true })]);
  return { regular, oblique };
}
