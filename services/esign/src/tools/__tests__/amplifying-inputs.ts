import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { run, withFile } from './support';

/** Inputs that make a PDF tool write many times what it reads (output-budget.test.ts, the hostile corpus). */

/** Pages that all draw one shared, incompressible form XObject of `bytes`: every split part carries a copy. */
export async function sharedResourcePdf(pages: number, bytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const form = doc.context.register(doc.context.stream(randomBytes(bytes), { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 1, 1] }));
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Page ${i}`, { x: 60, y: 760, size: 12, font });
    page.node.setXObject(PDFName.of('Shared'), form);
  }
  return Buffer.from(await doc.save());
}

/** Many blank pages packed in object streams by qpdf: about 9 bytes of input a page. */
export async function packedPages(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]);
  return withFile(Buffer.from(await doc.save()), async (p) => {
    await run('qpdf', ['--object-streams=generate', '--compression-level=9', p, `${p}.packed.pdf`]);
    return readFileSync(`${p}.packed.pdf`);
  });
}

/** One page covered by a `side` x `side` image of grey noise: each rendering is a PNG that barely compresses. */
export async function noisePagePdf(side: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([side, side]);
  const image = doc.context.register(
    doc.context.flateStream(randomBytes(side * side), { Type: 'XObject', Subtype: 'Image', Width: side, Height: side, BitsPerComponent: 8, ColorSpace: 'DeviceGray' }),
  );
  page.node.setXObject(PDFName.of('Noise'), image);
  page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(`q ${side} 0 0 ${side} 0 0 cm /Noise Do Q`)));
  return Buffer.from(await doc.save());
}
