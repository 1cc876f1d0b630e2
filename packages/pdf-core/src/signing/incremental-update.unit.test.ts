import { inflateSync } from 'node:zlib';
import { PDFContentStream, PDFDocument, PDFName, PDFNumber, PDFRawStream, PDFRef, StandardFonts, rgb } from 'pdf-lib';
import { openIncrementalUpdate } from './incremental-update';

/** pdf-lib's JavaScript zlib, the module instance pdf-lib itself loads. */
const pako = jest.requireActual<{ deflate: (data: Uint8Array) => Uint8Array }>('pako');

function rawStream(doc: PDFDocument, ref: PDFRef): PDFRawStream {
  const object = doc.context.lookup(ref);
  if (!(object instanceof PDFRawStream)) throw new Error(`object ${ref.objectNumber} is not a raw stream`);
  return object;
}

async function samplePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('Contrato de prueba', { x: 50, y: 780, size: 16, font });
  return Buffer.from(await doc.save());
}

describe('an incremental update’s new content streams', () => {
  afterEach(() => jest.restoreAllMocks());

  it('are compressed by node’s zlib, not pdf-lib’s JavaScript one, and decode to exactly what pdf-lib would have written', async () => {
    const original = await samplePdf();
    const update = await openIncrementalUpdate(original);
    const page = update.doc.getPage(0);
    const font = await update.doc.embedFont(StandardFonts.HelveticaBold);
    page.drawRectangle({ x: 24, y: 24, width: 250, height: 78, color: rgb(1, 1, 1), borderWidth: 0.75 });
    page.drawText('Firmado electrónicamente por', { x: 32, y: 88, size: 7.5, font });
    const added = [...update.doc.context.enumerateIndirectObjects()].filter(([, o]) => o instanceof PDFContentStream) as [PDFRef, PDFContentStream][];
    expect(added.length).toBeGreaterThanOrEqual(3); // the drawing, and pdf-lib's q / Q around the page's old content
    const expected = new Map(added.map(([ref, stream]) => [ref.objectNumber, Buffer.from(stream.getUnencodedContents())]));
    const pakoDeflate = jest.spyOn(pako, 'deflate');

    const written = await update.write();
    expect(pakoDeflate).not.toHaveBeenCalled();
    expect(written.subarray(0, original.length).equals(original)).toBe(true);

    const reread = await PDFDocument.load(written, { updateMetadata: false });
    for (const [objectNumber, content] of expected) {
      const stream = rawStream(reread, PDFRef.of(objectNumber));
      expect(stream.dict.get(PDFName.of('Filter'))).toBe(PDFName.of('FlateDecode'));
      expect(stream.dict.lookup(PDFName.of('Length'), PDFNumber).asNumber()).toBe(stream.contents.length);
      expect(inflateSync(stream.contents).equals(content)).toBe(true);
    }
  });

  it('stay as they are when pdf-lib would not compress them', async () => {
    const update = await openIncrementalUpdate(await samplePdf());
    const plain = PDFContentStream.of(update.doc.context.obj({}), [], false);
    const ref = update.doc.context.register(plain);
    const written = await update.write();
    const reread = await PDFDocument.load(written, { updateMetadata: false });
    const stream = rawStream(reread, ref);
    expect(stream.dict.get(PDFName.of('Filter'))).toBeUndefined();
    expect(Buffer.from(stream.contents).equals(Buffer.from(plain.getUnencodedContents()))).toBe(true);
  });
});
