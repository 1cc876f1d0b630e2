import { minimalPdf } from '../../../../../packages/pdf-core/src/__tests__/minimal-pdf';
import { pdfinfo, qpdfCheck, scannedPdf, startToolsService, textPdf, type ToolsService } from './support';

describe('POST /firma/tools/compress', () => {
  let svc: ToolsService;
  let scanned: Buffer;
  beforeAll(async () => {
    svc = await startToolsService('compress');
    scanned = await scannedPdf(await textPdf(2, { line: (p) => [`Scanned page ${p}`, 'x'.repeat(60)] }));
  });
  afterAll(async () => svc?.close());

  it('shrinks a scanned PDF at every ghostscript level, more at higher levels, keeping its pages', async () => {
    const sizes: Record<string, number> = {};
    for (const level of ['printer', 'ebook', 'screen']) {
      const res = await svc.post('compress').field('level', level).attach('file', scanned, 'scan.pdf');
      expect(res.status).toBe(200);
      expect(res.headers['x-compression-result']).toBe('compressed');
      expect(Number(res.headers['x-original-size'])).toBe(scanned.length);
      expect(Number(res.headers['x-compressed-size'])).toBe(res.body.length);
      expect(res.body.length).toBeLessThan(scanned.length);
      expect((await pdfinfo(res.body)).Pages).toBe('2');
      expect(await qpdfCheck(res.body)).toContain('No syntax or stream encoding errors');
      sizes[level] = res.body.length;
    }
    expect(sizes.screen).toBeLessThan(sizes.printer as number);
  });

  it('compresses losslessly at the prepress level', async () => {
    const res = await svc.post('compress').field('level', 'prepress').attach('file', await textPdf(20), 'text.pdf');
    expect(res.status).toBe(200);
    expect(['compressed', 'original']).toContain(res.headers['x-compression-result']);
    expect(res.body.length).toBeLessThanOrEqual(Number(res.headers['x-original-size']));
  });

  it('never answers a larger file: an already minimal PDF comes back unchanged, with a header saying so', async () => {
    const tiny = minimalPdf();
    for (const level of ['prepress', 'screen']) {
      const res = await svc.post('compress').field('level', level).attach('file', tiny, 'tiny.pdf');
      expect(res.status).toBe(200);
      expect(res.headers['x-compression-result']).toBe('original');
      expect(Buffer.compare(res.body, tiny)).toBe(0);
    }
  });

  it('uses ebook when no level is sent (interface §4.3 default)', async () => {
    const withDefault = await svc.post('compress').attach('file', scanned, 'scan.pdf');
    const ebook = await svc.post('compress').field('level', 'ebook').attach('file', scanned, 'scan.pdf');
    expect(withDefault.status).toBe(200);
    expect(withDefault.body.length).toBe(ebook.body.length);
  });

  it('refuses an unknown level, and the old low/medium/high/extreme names, with 422', async () => {
    for (const level of ['ultra', 'low', 'extreme']) {
      const res = await svc.post('compress').field('level', level).attach('file', minimalPdf(), 'tiny.pdf');
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['form', 'level']);
    }
  });
});
