import { rgb, type PDFDocument, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import type { SigneeLocale } from '../signing-requests/email-strings';
import { INITIALS_KEY, type FieldValues, type PlacedField } from '../signing-requests/field-schemas';
import type { FieldFonts } from './field-fonts';
import { winAnsiText } from './winansi';

/** The date a `date` field shows, in the request's language (UTC, as the stamp's time). */
const DATE_LOCALES: Record<SigneeLocale, string> = { es: 'es-ES', en: 'en-GB', ca: 'ca-ES', gl: 'gl-ES', eu: 'eu-ES' };

export function fieldDate(at: Date, locale: SigneeLocale): string {
  return new Intl.DateTimeFormat(DATE_LOCALES[locale], { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(at);
}

/** Initials from a name ("Ana García López" → "AGL"), or from an address's local part. */
export function initialsOf(name: string): string {
  const words = name.split(/[\s.@_-]+/).filter((w) => /\p{L}/u.test(w));
  return words.slice(0, 4).map((w) => [...w.replace(/^\P{L}+/u, '')][0]!.toUpperCase()).join('') || '?';
}

export interface FieldStamp {
  fields: PlacedField[];
  values: FieldValues;
  locale: SigneeLocale;
  name: string;
  signedAt: Date;
  image: Buffer | null;
  /** Drawn initials, drawn in every initials box instead of the typed ones. */
  initialsImage?: Buffer | null;
}

/** Whether a signee's own fields replace the block on the last page: they do when one is a signature field. */
export const hasSignatureField = (fields: PlacedField[] | null): boolean => Boolean(fields?.some((f) => f.type === 'signature'));

/**
 * Draws a signee's fields in their boxes: a white ground first (it covers the anchor text
 * a field was placed on), then the value scaled to fit: the signature image (or the name
 * in an oblique face without one), the initials, the date, the name, a text value, an X in
 * a ticked checkbox, in the embedded DejaVu faces (field-fonts.ts). Boxes are fractions
 * of each page's CropBox, origin top-left.
 */
export async function drawFields(doc: PDFDocument, stamp: FieldStamp, fonts: FieldFonts): Promise<void> {
  const pages = doc.getPages();
  let png: PDFImage | null = null;
  if (stamp.image && stamp.fields.some((f) => f.type === 'signature')) png = await doc.embedPng(stamp.image);
  // Embedded once, drawn in every initials box (one image object, many uses).
  const initialsPng = stamp.initialsImage && stamp.fields.some((f) => f.type === 'initials') ? await doc.embedPng(stamp.initialsImage) : null;
  const initials = typeof stamp.values[INITIALS_KEY] === 'string' && stamp.values[INITIALS_KEY] ? (stamp.values[INITIALS_KEY] as string) : initialsOf(stamp.name);
  for (const field of stamp.fields) {
    for (const { page: n, box } of field.resolved) {
      const page = pages[n - 1];
      if (!page) continue;
      const crop = page.getCropBox();
      const rect = { x: crop.x + box.x * crop.width, y: crop.y + crop.height - (box.y + box.h) * crop.height, width: box.w * crop.width, height: box.h * crop.height };
      page.drawRectangle({ ...rect, color: rgb(1, 1, 1) });
      switch (field.type) {
        case 'signature':
          if (png) drawImageIn(page, png, rect);
          else drawTextIn(page, fonts.oblique, stamp.name, rect);
          break;
        case 'initials':
          if (initialsPng) drawImageIn(page, initialsPng, rect);
          else drawTextIn(page, fonts.oblique, initials, rect);
          break;
        case 'date':
          drawTextIn(page, fonts.regular, fieldDate(stamp.signedAt, stamp.locale), rect);
          break;
        case 'name':
          drawTextIn(page, fonts.regular, stamp.name, rect);
          break;
        case 'text': {
          const value = stamp.values[field.name];
          if (typeof value === 'string' && value) drawTextIn(page, fonts.regular, value, rect);
          break;
        }
        case 'checkbox': {
          const side = Math.min(rect.width, rect.height);
          const square = { x: rect.x, y: rect.y + (rect.height - side) / 2, width: side, height: side };
          page.drawRectangle({ ...square, borderColor: rgb(0.2, 0.2, 0.2), borderWidth: Math.max(0.5, side / 24) });
          if (stamp.values[field.name] === true) drawTextIn(page, fonts.regular, 'X', square);
          break;
        }
      }
    }
  }
}

type Rect = { x: number; y: number; width: number; height: number };

function drawImageIn(page: PDFPage, png: PDFImage, rect: Rect): void {
  const scale = Math.min(rect.width / png.width, rect.height / png.height);
  const width = png.width * scale;
  const height = png.height * scale;
  page.drawImage(png, { x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width, height });
}

/**
 * One line, centred vertically and starting at the left edge, its size the box's height
 * times 0.6 unless the text is too wide, then smaller: the glyphs stay inside the box.
 */
function drawTextIn(page: PDFPage, font: PDFFont, raw: string, rect: Rect): void {
  // Letters the face lacks (CJK, say) lose their accents or become "?" rather than vanish.
  const text = winAnsiText(font, raw);
  const pad = Math.min(2, rect.width * 0.05);
  const width = font.widthOfTextAtSize(text, 1);
  const size = Math.max(0.5, Math.min(rect.height * 0.6, width > 0 ? (rect.width - 2 * pad) / width : rect.height));
  page.drawText(text, { x: rect.x + pad, y: rect.y + (rect.height - size) / 2 + size * 0.2, size, font, color: rgb(0.05, 0.05, 0.2) });
}
