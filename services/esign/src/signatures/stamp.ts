import type { SigneeLocale } from '../signing-requests/email-strings';
import { StandardFonts, rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { winAnsiText } from './winansi';
import type { FieldValues, PlacedField } from '../signing-requests/field-schemas';
import { drawFields, hasSignatureField } from './stamp-fields';
import { embedFieldFonts } from './field-fonts';

/** The stamp's two fixed phrases in the request's language (WinAnsi letters only: the standard fonts draw them). */
const STAMP_WORDS: Record<SigneeLocale, { signedBy: string; request: string }> = {
  es: { signedBy: 'Firmado electrónicamente por', request: 'Solicitud' },
  en: { signedBy: 'Electronically signed by', request: 'Request' },
  ca: { signedBy: 'Signat electrònicament per', request: 'Sol·licitud' },
  gl: { signedBy: 'Asinado electronicamente por', request: 'Solicitude' },
  eu: { signedBy: 'Elektronikoki sinatu du:', request: 'Eskaera' },
};

export interface StampData {
  /** Position among the document's requests (creation order): where on the page the block goes. */
  slot: number;
  locale: SigneeLocale;
  name: string | null;
  maskedEmail: string;
  signedAt: Date;
  requestId: string;
  /** The handwritten signature (validated PNG), if the signee drew one. */
  image: Buffer | null;
  /** The request's fields and the values filled in (stamp-fields.ts); null for a request without fields. */
  fields?: PlacedField[] | null;
  values?: FieldValues | null;
  /** Drawn initials (validated PNG), set in every initials field; null when typed or none. */
  initialsImage?: Buffer | null;
}

const BLOCK_W = 250;
const BLOCK_H = 78;
const GAP = 8;
const MARGIN = 24;

/**
 * Draws each signee's block on the last page: the handwritten image on the left, then
 * name, masked email, time (UTC) and request id. Blocks fill rows from the bottom-left
 * corner by slot, so a signee's block sits in the same place in their own copy and in the
 * combined final PDF.
 */
export async function drawStamps(doc: PDFDocument, stamps: StampData[]): Promise<void> {
  if (stamps.length === 0) return;
  const page = doc.getPages()[doc.getPageCount() - 1]!;
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  // Without fields, exactly as before: only the block, only these two fonts.
  const fieldFonts = stamps.some((s) => s.fields) ? await embedFieldFonts(doc) : null;
  for (const stamp of stamps) {
    if (stamp.fields && fieldFonts) {
      const name = stamp.name ?? stamp.maskedEmail;
      await drawFields(doc, { fields: stamp.fields, values: stamp.values ?? {}, locale: stamp.locale, name, signedAt: stamp.signedAt, image: stamp.image, initialsImage: stamp.initialsImage ?? null }, fieldFonts);
    }
    // A signee with a signature field signs there; the block stays for one without.
    if (!hasSignatureField(stamp.fields ?? null)) await drawStamp(doc, page, stamp, regular, bold);
  }
}

async function drawStamp(doc: PDFDocument, page: PDFPage, stamp: StampData, regular: PDFFont, bold: PDFFont): Promise<void> {
  const box = page.getCropBox();
  const perRow = Math.max(1, Math.floor((box.width - 2 * MARGIN + GAP) / (BLOCK_W + GAP)));
  const x = box.x + MARGIN + (stamp.slot % perRow) * (BLOCK_W + GAP);
  const y = box.y + MARGIN + Math.floor(stamp.slot / perRow) * (BLOCK_H + GAP);
  page.drawRectangle({ x, y, width: BLOCK_W, height: BLOCK_H, color: rgb(1, 1, 1), opacity: 0.92, borderColor: rgb(0.35, 0.35, 0.35), borderWidth: 0.75 });
  let textX = x + 8;
  if (stamp.image) {
    const png = await doc.embedPng(stamp.image);
    const scale = Math.min(86 / png.width, (BLOCK_H - 12) / png.height, 1);
    page.drawImage(png, { x: x + 6, y: y + (BLOCK_H - png.height * scale) / 2, width: png.width * scale, height: png.height * scale });
    textX = x + 98;
  }
  const words = STAMP_WORDS[stamp.locale];
  const when = `${stamp.signedAt.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  const lines: [PDFFont, number, string][] = [
    [bold, 7.5, words.signedBy],
    [bold, 9, stamp.name ?? stamp.maskedEmail],
    [regular, 7, stamp.maskedEmail],
    [regular, 7, when],
    [regular, 5.6, `${words.request} ${stamp.requestId}`],
  ];
  let lineY = y + BLOCK_H - 14;
  const maxWidth = x + BLOCK_W - 6 - textX;
  for (const [font, size, raw] of lines) {
    page.drawText(fit(font, size, winAnsiText(font, raw), maxWidth), { x: textX, y: lineY, size, font, color: rgb(0.1, 0.1, 0.1) });
    lineY -= size + 5;
  }
}

function fit(font: PDFFont, size: number, text: string, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}
