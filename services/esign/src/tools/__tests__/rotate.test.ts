import { degrees, PDFDocument } from 'pdf-lib';
import { qpdfJson, startToolsService, textPdf, type ToolsService } from './support';

async function rotations(pdf: Uint8Array): Promise<number[]> {
  const json = await qpdfJson(pdf, ['pages', 'qpdf']);
  const objects = json.qpdf[1] as Record<string, { value: Record<string, unknown> }>;
  return (json.pages as { object: string }[]).map((p) => Number(objects[`obj:${p.object}`]?.value['/Rotate'] ?? 0));
}

describe('POST /firma/tools/rotate', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('rotate');
  });
  afterAll(async () => svc?.close());

  it('rotates every page by the angle when no pages are given', async () => {
    const res = await svc.post('rotate').field('angle', '90').attach('file', await textPdf(3), 'a.pdf');
    expect(res.status).toBe(200);
    expect(await rotations(res.body)).toEqual([90, 90, 90]);
  });

  it('answers the PDF with its length and no ETag (a POST answer is never revalidated: nothing hashes the output)', async () => {
    const res = await svc.post('rotate').field('angle', '180').attach('file', await textPdf(2), 'a.pdf');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?a-rotated\.pdf"?$/);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.headers.etag).toBeUndefined();
    expect(await rotations(res.body)).toEqual([180, 180]);
  });

  it('rotates only the listed pages, on top of their existing rotation', async () => {
    const doc = await PDFDocument.load(await textPdf(4));
    doc.getPage(2).setRotation(degrees(90));
    const res = await svc.post('rotate').field('angle', '270').field('pages', '1,3').attach('file', Buffer.from(await doc.save()), 'a.pdf');
    expect(res.status).toBe(200);
    expect(await rotations(res.body)).toEqual([270, 0, 0, 0]);
  });

  it('accepts only 90, 180 and 270', async () => {
    const res = await svc.post('rotate').field('angle', '45').attach('file', await textPdf(1), 'a.pdf');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'angle'], type: 'enum' });
    const missing = await svc.post('rotate').attach('file', await textPdf(1), 'a.pdf');
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['form', 'angle']);
  });
});
