import type { PDFFont } from 'pdf-lib';

/**
 * The standard fonts encode WinAnsi only. Spanish and most Western names fit; other
 * letters lose their accents where that helps (NFD) and become "?" otherwise, rather than
 * failing the seal over a name.
 */
export function winAnsiText(font: PDFFont, text: string): string {
  const supported = new Set(font.getCharacterSet());
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    if (supported.has(code)) {
      out += ch;
      continue;
    }
    const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += [...base].every((c) => supported.has(c.codePointAt(0)!)) && base ? base : '?';
  }
  return out;
}
