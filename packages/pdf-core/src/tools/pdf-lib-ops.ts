import { decodePDFRawStream, degrees, PDFDocument, PDFDict, PDFHexString, PDFName, PDFRawStream, PDFString, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { PdfInputError } from './errors';
import type { MetadataFields, PageNumbersArgs, WatermarkArgs } from './worker-protocol';

/**
 * pdf-lib operations. They are synchronous CPU work on the whole document, so the
 * service runs them in the worker pool (pdf-worker.ts), never on the request thread.
 * Inputs have been through preparePdf (readable, not encrypted).
 */

async function load(pdf: Uint8Array): Promise<PDFDocument> {
  try {
    // updateMetadata: false keeps the document's Producer and dates unless the tool is about them
    return await PDFDocument.load(pdf, { updateMetadata: false });
  } catch (err) {
    throw new PdfInputError('file', `The PDF cannot be edited: ${(err as Error).message.slice(0, 160)}`, 'pdf_damaged');
  }
}

const save = (doc: PDFDocument) => doc.save({ useObjectStreams: true });

/** The standard fonts speak WinAnsi (Latin-1 plus a few signs); anything else cannot be drawn with them. */
function assertEncodable(font: PDFFont, text: string, field: string): void {
  try {
    font.encodeText(text);
  } catch {
    throw new PdfInputError(field, 'Only Latin characters (WinAnsi: Spanish, English, Western European) can be drawn', 'text_unsupported_characters');
  }
}

function parseColor(hex: string) {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** The page's visible area (CropBox, which defaults to the MediaBox) and its display rotation. */
function visibleBox(page: PDFPage) {
  const box = page.getCropBox();
  const rotation = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const sideways = rotation === 90 || rotation === 270;
  return { box, rotation, width: sideways ? box.height : box.width, height: sideways ? box.width : box.height };
}

/**
 * Maps a point given in the page's displayed frame (origin at the visible bottom-left,
 * after /Rotate) to user space. A viewer turns the page clockwise by `rotation`.
 */
function toUserSpace(page: PDFPage, vx: number, vy: number): { x: number; y: number } {
  const { box, rotation } = visibleBox(page);
  const { x: x0, y: y0, width: w, height: h } = box;
  switch (rotation) {
    case 90:
      return { x: x0 + w - vy, y: y0 + vx };
    case 180:
      return { x: x0 + w - vx, y: y0 + h - vy };
    case 270:
      return { x: x0 + vy, y: y0 + h - vx };
    default:
      return { x: x0 + vx, y: y0 + vy };
  }
}

/** Draws `text` with its baseline start at displayed point (vx, vy), turned `angle` degrees counter-clockwise as seen. */
function drawAsSeen(page: PDFPage, text: string, vx: number, vy: number, angle: number, opts: { font: PDFFont; size: number; color: ReturnType<typeof rgb>; opacity: number }) {
  const { rotation } = visibleBox(page);
  const { x, y } = toUserSpace(page, vx, vy);
  page.drawText(text, { x, y, font: opts.font, size: opts.size, color: opts.color, opacity: opts.opacity, rotate: degrees(angle + rotation) });
}

export async function watermarkPdf(args: WatermarkArgs): Promise<Uint8Array> {
  const doc = await load(args.pdf);
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  assertEncodable(font, args.text, 'text');
  const lines = args.text.split(/\r?\n/);
  const color = parseColor(args.color);
  const lineHeight = args.fontSize * 1.2;
  const theta = (args.rotation * Math.PI) / 180;
  const [cos, sin] = [Math.cos(theta), Math.sin(theta)];
  for (const page of doc.getPages()) {
    const { width, height } = visibleBox(page);
    lines.forEach((line, i) => {
      const w = font.widthOfTextAtSize(line, args.fontSize);
      // offset of this line from the block's centre, in the text's own (rotated) frame
      const dx = -w / 2;
      const dy = ((lines.length - 1) / 2 - i) * lineHeight - args.fontSize * 0.35;
      const vx = width / 2 + dx * cos - dy * sin;
      const vy = height / 2 + dx * sin + dy * cos;
      drawAsSeen(page, line, vx, vy, args.rotation, { font, size: args.fontSize, color, opacity: args.opacity });
    });
  }
  return save(doc);
}

export async function numberPages(args: PageNumbersArgs): Promise<Uint8Array> {
  const doc = await load(args.pdf);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  const total = pages.length;
  const margin = Math.max(18, args.fontSize * 1.5);
  const color = rgb(0, 0, 0);
  pages.forEach((page, i) => {
    const text = args.format.replaceAll('{page}', String(i + args.start)).replaceAll('{total}', String(total + args.start - 1));
    if (i === 0) assertEncodable(font, text, 'format_str');
    const { width, height } = visibleBox(page);
    const w = font.widthOfTextAtSize(text, args.fontSize);
    const [vertical, horizontal] = args.position.split('-') as ['top' | 'bottom', 'left' | 'center' | 'right'];
    const vx = horizontal === 'left' ? margin : horizontal === 'right' ? width - margin - w : (width - w) / 2;
    const vy = vertical === 'bottom' ? margin : height - margin - args.fontSize * 0.75;
    drawAsSeen(page, text, vx, vy, 0, { font, size: args.fontSize, color, opacity: 1 });
  });
  return save(doc);
}

const INFO_KEYS: Record<keyof MetadataFields, string> = {
  title: 'Title',
  author: 'Author',
  subject: 'Subject',
  keywords: 'Keywords',
  creator: 'Creator',
  producer: 'Producer',
};

/**
 * Sets (or, with an empty value, removes) Info entries and keeps the XMP packet in
 * step: an existing packet gets the same values (other schemas, such as PDF/A's
 * pdfaid, are kept); a document without one gets a new packet.
 */
export async function setMetadata(pdfBytes: Uint8Array, fields: MetadataFields): Promise<Uint8Array> {
  const doc = await load(pdfBytes);
  const info = infoDict(doc);
  for (const [field, key] of Object.entries(INFO_KEYS) as [keyof MetadataFields, string][]) {
    const value = fields[field];
    if (value === undefined) continue;
    if (value === '') info.delete(PDFName.of(key));
    else if (field === 'title') doc.setTitle(value, { showInWindowTitleBar: true });
    else info.set(PDFName.of(key), pdfText(value));
  }
  const now = new Date();
  doc.setModificationDate(now);

  const current: Record<string, string | undefined> = {};
  for (const [field, key] of Object.entries(INFO_KEYS)) current[field] = readInfoString(doc, key);
  const existing = readXmp(doc);
  const xmp = existing ? patchXmp(existing, fields, current, now) : buildXmp(current, now);
  // bytes, not a string: pdf-lib would write a string's characters as Latin-1
  const stream = doc.context.stream(new TextEncoder().encode(xmp), { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
  return save(doc);
}

/** Plain ASCII stays a literal string; anything else is UTF-16BE with a BOM, so accents and any script survive. */
function pdfText(value: string) {
  return /^[\x20-\x7e]*$/.test(value) ? PDFString.of(value.replace(/[\\()]/g, (c) => `\\${c}`)) : PDFHexString.fromText(value);
}

/** pdf-lib keeps its Info accessor private; the setters use the same dictionary. */
function infoDict(doc: PDFDocument): PDFDict {
  return (doc as unknown as { getInfoDict(): PDFDict }).getInfoDict();
}

function readInfoString(doc: PDFDocument, key: string): string | undefined {
  const value = infoDict(doc).lookup(PDFName.of(key));
  if (value && 'decodeText' in value && typeof value.decodeText === 'function') return (value.decodeText as () => string)();
  return undefined;
}

function readXmp(doc: PDFDocument): string | undefined {
  const ref = doc.catalog.get(PDFName.of('Metadata'));
  const stream = ref ? doc.context.lookup(ref) : undefined;
  if (!(stream instanceof PDFRawStream)) return undefined;
  if (stream.dict.get(PDFName.of('Filter'))) {
    try {
      return Buffer.from(decodePDFRawStream(stream).decode()).toString('utf8');
    } catch {
      return undefined;
    }
  }
  return Buffer.from(stream.contents).toString('utf8');
}

export function xmlEscape(value: string): string {
  return value.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

const XMP_PROPS: Record<keyof MetadataFields, { tag: string; kind: 'alt' | 'seq' | 'simple' }> = {
  title: { tag: 'dc:title', kind: 'alt' },
  author: { tag: 'dc:creator', kind: 'seq' },
  subject: { tag: 'dc:description', kind: 'alt' },
  keywords: { tag: 'pdf:Keywords', kind: 'simple' },
  creator: { tag: 'xmp:CreatorTool', kind: 'simple' },
  producer: { tag: 'pdf:Producer', kind: 'simple' },
};

const NS = 'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"';

function xmpProperty(field: keyof MetadataFields, value: string): string {
  const { tag, kind } = XMP_PROPS[field];
  const v = xmlEscape(value);
  if (kind === 'alt') return `<${tag}><rdf:Alt><rdf:li xml:lang="x-default">${v}</rdf:li></rdf:Alt></${tag}>`;
  if (kind === 'seq') return `<${tag}><rdf:Seq><rdf:li>${v}</rdf:li></rdf:Seq></${tag}>`;
  return `<${tag}>${v}</${tag}>`;
}

function descriptionFor(values: Partial<Record<keyof MetadataFields, string | undefined>>, date: Date): string {
  const props = (Object.keys(XMP_PROPS) as (keyof MetadataFields)[])
    .filter((f) => values[f])
    .map((f) => xmpProperty(f, values[f] as string));
  props.push(`<xmp:ModifyDate>${date.toISOString()}</xmp:ModifyDate>`, `<xmp:MetadataDate>${date.toISOString()}</xmp:MetadataDate>`);
  return `<rdf:Description rdf:about="" ${NS}>${props.join('')}</rdf:Description>`;
}

function buildXmp(values: Record<string, string | undefined>, date: Date): string {
  return [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    descriptionFor(values, date),
    '</rdf:RDF></x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

/**
 * Removes the properties being changed (element or attribute form, and the dates we
 * rewrite) from an existing packet and adds one Description with their new values.
 */
function patchXmp(xmp: string, fields: MetadataFields, current: Record<string, string | undefined>, date: Date): string {
  const changed = (Object.keys(XMP_PROPS) as (keyof MetadataFields)[]).filter((f) => fields[f] !== undefined);
  const tags = [...changed.map((f) => XMP_PROPS[f].tag), 'xmp:ModifyDate', 'xmp:MetadataDate'];
  let out = xmp;
  for (const tag of tags) {
    const t = tag.replace(':', '\\:');
    out = out.replace(new RegExp(`<${t}(?:\\s[^>]*)?>[\\s\\S]*?</${t}>`, 'g'), '').replace(new RegExp(`<${t}(?:\\s[^>]*)?/>`, 'g'), '');
    out = out.replace(new RegExp(`\\s${t}\\s*=\\s*("[^"]*"|'[^']*')`, 'g'), '');
  }
  const values = Object.fromEntries(changed.map((f) => [f, current[f]]));
  const description = descriptionFor(values, date);
  if (!/<\/rdf:RDF>/.test(out)) return buildXmp(current, date);
  return out.replace(/<\/rdf:RDF>/, `${description}</rdf:RDF>`);
}
