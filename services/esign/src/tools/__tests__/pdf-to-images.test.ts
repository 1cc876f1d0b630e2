import request from 'supertest';
import { degrees, PDFDocument } from 'pdf-lib';
import { eventually } from '@firma-riesgo/service-kit/testing';
import { pngSize, startToolsService, textPdf, type ToolsService } from './support';

describe('POST /firma/tools/pdf-to-images', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('render');
  });
  afterAll(async () => svc?.close());

  it('renders one PNG per page at 150 dpi by default, rotated pages as shown', async () => {
    const doc = await PDFDocument.load(await textPdf(3));
    doc.getPage(1).setRotation(degrees(90));
    const res = await svc.post('pdf-to-images').attach('file', Buffer.from(await doc.save()), 'doc.pdf');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pages: 3, dpi: 150 });
    const sizes = res.body.images.map((i: { data_base64: string }) => pngSize(Buffer.from(i.data_base64, 'base64')));
    expect(sizes).toEqual([
      { width: 1240, height: 1755 },
      { width: 1755, height: 1240 },
      { width: 1240, height: 1755 },
    ]);
    expect(res.body.images[0]).toMatchObject({ page: 1, width: 1240, height: 1755, content_type: 'image/png', filename: 'doc-page-1.png' });
    const png = Buffer.from(res.body.images[0].data_base64, 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(res.body.images[0].size_bytes).toBe(png.length);
  });

  it('renders only the selected pages at the requested dpi', async () => {
    const res = await svc.post('pdf-to-images').field('dpi', '72').field('pages', '2').attach('file', await textPdf(3), 'doc.pdf');
    expect(res.body.images.map((i: { page: number; width: number }) => [i.page, i.width])).toEqual([[2, 595]]);
  });

  it('caps the dpi and the pixels of a request with 422', async () => {
    const tooSharp = await svc.post('pdf-to-images').field('dpi', '1200').attach('file', await textPdf(1), 'a.pdf');
    expect(tooSharp.status).toBe(422);
    expect(tooSharp.body.detail[0].loc).toEqual(['form', 'dpi']);
    const poster = await svc.post('pdf-to-images').field('dpi', '300').attach('file', await textPdf(1, { size: [14000, 14000] }), 'poster.pdf');
    expect(poster.status).toBe(422);
    expect(poster.body.detail[0]).toMatchObject({ loc: ['form', 'dpi'], type: 'image_too_large' });
  });

  it('keeps /health answering while a heavy render runs on a worker thread', async () => {
    const big = await textPdf(100, { line: (p) => Array.from({ length: 40 }, (_, i) => `Page ${p} line ${i} lorem ipsum dolor sit amet`) });
    const pool = svc.rt.tools!.pool;
    let finished = false;
    const heavy = svc
      .post('pdf-to-images')
      .field('dpi', '150')
      .attach('file', big, 'big.pdf')
      .then((res) => {
        finished = true;
        return res;
      });
    await eventually(async () => (pool.stats().busy > 0 ? true : undefined));
    for (let i = 0; i < 3; i++) {
      const health = await request(svc.rt.server!).get('/health');
      expect(health.status).toBe(200);
    }
    // all three answers came while the render was still running
    expect(finished).toBe(false);
    expect(pool.stats().busy).toBe(1);
    const res = await heavy;
    expect(res.status).toBe(200);
    expect(res.body.pages).toBe(100);
  });
});
