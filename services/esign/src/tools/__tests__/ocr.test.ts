import { pdftotext, scannedPdf, startToolsService, textPdf, type ToolsService } from './support';

// OCR is slow (seconds a page) and the machine is shared: two ocrmypdf runs in all.
describe('POST /firma/tools/ocr', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('ocr');
  });
  afterAll(async () => svc?.close());

  it('makes a scanned page searchable: pdftotext finds its words afterwards', async () => {
    const scan = await scannedPdf(await textPdf(1, { line: () => ['CONTRATO DE ARRENDAMIENTO', 'Madrid, cinco de marzo'] }));
    expect((await pdftotext(scan)).trim()).toBe('');
    const res = await svc.post('ocr').field('lang', 'spa').attach('file', scan, 'scan.pdf');
    expect(res.status).toBe(200);
    const text = await pdftotext(res.body);
    expect(text).toMatch(/ARRENDAMIENTO/);
    expect(text).toMatch(/Madrid/);
  });

  it('handles a file that already has text (skip mode) without failing and keeps its text', async () => {
    const res = await svc.post('ocr').attach('file', await textPdf(1, { line: () => 'Texto ya presente' }), 'digital.pdf');
    expect(res.status).toBe(200);
    expect(await pdftotext(res.body)).toContain('Texto ya presente');
  });

  it('validates lang against the installed tesseract languages', async () => {
    const res = await svc.post('ocr').field('lang', 'spa+klingon').attach('file', await textPdf(1), 'a.pdf');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'lang'], type: 'lang_unsupported' });
    expect(res.body.detail[0].msg).toContain('klingon');
    expect(res.body.detail[0].msg).toContain('spa');
  });
});
