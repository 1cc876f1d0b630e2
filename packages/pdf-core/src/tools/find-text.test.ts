import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createWorkerPool } from './worker-pool';

/** Two pages; page 2 is cropped (CropBox 50,50 to 545,792) and holds "{{firma}}" twice, and "{{FIRMA}}" once. */
async function croppedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('Primera pagina sin ancla', { x: 60, y: 700, size: 12, font });
  const page = doc.addPage([595, 842]);
  page.setCropBox(50, 50, 495, 742);
  page.drawText('Firma: {{firma}}', { x: 100, y: 700, size: 12, font });
  page.drawText('Otra {{firma}} abajo', { x: 100, y: 300, size: 12, font });
  page.drawText('En mayusculas {{FIRMA}}', { x: 100, y: 200, size: 12, font });
  return doc.save();
}

describe('find-text (mupdf structured text search on the worker pool)', () => {
  const pool = createWorkerPool({ size: 1, maxQueue: 2 });
  afterAll(() => pool.close());

  it('answers every match with its page and its box in fractions of the CropBox, origin top-left', async () => {
    const found = await pool.run('find-text', { pdf: await croppedPdf(), needles: ['{{firma}}', 'no-such-text'], maxPages: 100 });
    expect(found.pages).toBe(2);
    // the exact text (case counts), in reading order; none of the second needle
    expect(found.hits.map((h) => [h.needle, h.page])).toEqual([
      [0, 2],
      [0, 2],
    ]);
    const [first, second] = found.hits;
    // the match starts after "Firma: " (about 37 pt of Helvetica at 12 pt)
    expect(first!.box.x).toBeGreaterThan((100 + 30 - 50) / 495);
    expect(first!.box.x).toBeLessThan((100 + 45 - 50) / 495);
    // the CropBox top is 792: the 12 pt glyphs on the 700 pt baseline start about 80 pt below it
    expect(first!.box.y).toBeGreaterThan((792 - 700 - 14) / 742);
    expect(first!.box.y).toBeLessThan((792 - 700) / 742);
    expect(first!.box.h).toBeGreaterThan(8 / 742);
    expect(first!.box.h).toBeLessThan(18 / 742);
    expect(second!.box.y).toBeGreaterThan((792 - 300 - 14) / 742);
    expect(second!.box.y).toBeLessThan((792 - 300) / 742);
  });

  it('searches only the first maxPages pages', async () => {
    const found = await pool.run('find-text', { pdf: await croppedPdf(), needles: ['{{firma}}'], maxPages: 1 });
    expect(found).toEqual({ pages: 2, hits: [] });
  });
});
