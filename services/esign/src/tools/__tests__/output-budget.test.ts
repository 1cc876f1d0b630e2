import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { packedPages, sharedResourcePdf } from './amplifying-inputs';
import { officeDocument } from './office-files';
import { leftovers, pageImage, pdfinfo, startToolsService, textPdf, type ToolsService } from './support';

/**
 * Every tool that can write more than it reads stops at its output budget:
 * ESIGN_TOOL_OUTPUT_FACTOR x ESIGN_MAX_UPLOAD_MB, here 0.25 x 1 MB = 256 KB. Past it the
 * answer is 413 TOOL_OUTPUT_TOO_LARGE with esign's error body, and the call's temp dir is gone.
 */
const BUDGET = 256 * 1024;

describe('output budgets of the PDF tools', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('budget', { ESIGN_MAX_UPLOAD_MB: '1', ESIGN_TOOL_OUTPUT_FACTOR: '0.25' });
  });
  afterAll(async () => svc?.close());

  const refused = async (res: { status: number; body: unknown }) => {
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'TOOL_OUTPUT_TOO_LARGE', detail: expect.stringContaining('0.25 MB'), request_id: expect.any(String) });
    expect(await leftovers(svc)).toEqual([]);
  };

  it('split: one page copied into part after part is refused at the budget; a split within it still works', async () => {
    const pdf = await sharedResourcePdf(1, 40 * 1024);
    await refused(await svc.post('split').field('ranges', Array(60).fill('1-1').join(',')).attach('file', pdf, 'a.pdf'));
    const ok = await svc.post('split').field('ranges', '1-1,1-1').attach('file', pdf, 'a.pdf');
    expect(ok.status).toBe(200);
    expect(ok.body.parts).toBe(2);
    expect((await pdfinfo(Buffer.from(ok.body.files[1].data_base64, 'base64'))).Pages).toBe('1');
  });

  it('split every N pages: a resource shared by every page, copied into each part, is refused at the budget', async () => {
    await refused(await svc.post('split').field('every', '1').attach('file', await sharedResourcePdf(12, 40 * 1024), 'a.pdf'));
    const ok = await svc.post('split').field('every', '1').attach('file', await sharedResourcePdf(3, 40 * 1024), 'a.pdf');
    expect(ok.status).toBe(200);
    expect(ok.body.parts).toBe(3);
  });

  it('extract-pages: all pages asked for again and again is refused at the budget', async () => {
    const pdf = await packedPages(2000);
    expect(pdf.length).toBeLessThan(BUDGET / 8);
    await refused(await svc.post('extract-pages').field('pages', Array(6).fill('1-2000').join(',')).attach('file', pdf, 'a.pdf'));
    const ok = await svc.post('extract-pages').field('pages', '1-3,1').attach('file', pdf, 'a.pdf');
    expect(ok.status).toBe(200);
    expect(ok.headers['x-page-count']).toBe('4');
  });

  it('pdf-to-images: one page rendered again and again is refused at the budget', async () => {
    const pdf = await textPdf(1, { line: () => Array.from({ length: 30 }, (_, i) => `Line ${i} ${'lorem ipsum dolor '.repeat(4)}`) });
    await refused(await svc.post('pdf-to-images').field('dpi', '150').field('pages', Array(40).fill('1').join(',')).attach('file', pdf, 'a.pdf'));
    const ok = await svc.post('pdf-to-images').field('dpi', '72').attach('file', pdf, 'a.pdf');
    expect(ok.status).toBe(200);
    expect(ok.body.pages).toBe(1);
  });

  it('page-numbers and watermark: a stamp on each of many tiny pages is refused at the budget', async () => {
    const pdf = await packedPages(2000);
    expect(pdf.length).toBeLessThan(BUDGET / 2);
    await refused(await svc.post('page-numbers').attach('file', pdf, 'a.pdf'));
    await refused(await svc.post('watermark').field('text', 'CONFIDENCIAL').attach('file', pdf, 'a.pdf'));
    const small = await textPdf(2);
    expect((await svc.post('page-numbers').attach('file', small, 'a.pdf')).status).toBe(200);
    expect((await svc.post('watermark').field('text', 'CONFIDENCIAL').attach('file', small, 'a.pdf')).status).toBe(200);
  });

  it('redact and to-pdfa: thousands of tiny packed pages written back out one object at a time are refused at the budget', async () => {
    const pdf = await packedPages(2000);
    expect(pdf.length).toBeLessThan(BUDGET / 8);
    await refused(await svc.post('redact').field('patterns', 'secreto').attach('file', pdf, 'a.pdf'));
    await refused(await svc.post('to-pdfa').attach('file', pdf, 'a.pdf'));
    const small = await textPdf(2, { line: (p) => `Page ${p}: el secreto` });
    const redacted = await svc.post('redact').field('patterns', 'secreto').attach('file', small, 'a.pdf');
    expect(redacted.status).toBe(200);
    expect(redacted.headers['x-redaction-count']).toBe('2');
    expect((await svc.post('to-pdfa').attach('file', small, 'a.pdf')).status).toBe(200);
  });

  it('images-to-pdf: images whose PDF passes the budget are refused; a small one still works', async () => {
    // distinct JPEGs, each embedded as it is: their bytes are the least the PDF holds
    const jpeg = async () => pageImage(await textPdf(1, { line: () => Array.from({ length: 40 }, (_, i) => `${i} ${randomBytes(24).toString('hex')}`) }), 'jpeg', 100);
    const images: Buffer[] = [];
    while (images.reduce((sum, j) => sum + j.length, 0) <= BUDGET) images.push(await jpeg());
    let req = svc.post('images-to-pdf');
    images.forEach((image, i) => (req = req.attach('files', image, `p${i}.jpg`)));
    await refused(await req);
    const ok = await svc.post('images-to-pdf').attach('files', images[0]!, 'p.jpg');
    expect(ok.status).toBe(200);
  });

  it('documents the budget and its 413 in every tool of the OpenAPI document', async () => {
    const { body: doc } = await request(svc.rt.server!).get('/openapi.json');
    const tools = Object.entries(doc.paths as Record<string, { post: { description: string; responses: Record<string, { description: string }> } }>).filter(([path]) => path.startsWith('/firma/tools/'));
    expect(tools).toHaveLength(17);
    for (const [, { post }] of tools) {
      expect(post.responses['413']!.description).toContain('TOOL_OUTPUT_TOO_LARGE');
      expect(post.description).toContain('Largest result: 0.25 MB');
    }
  });

  it('office-to-pdf: a few KB of zipped, repeated text that lays out as hundreds of pages is refused at the budget', async () => {
    const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(30);
    const docx = await officeDocument(Array(1000).fill(paragraph));
    expect(docx.length).toBeLessThan(BUDGET / 16);
    await refused(await svc.post('office-to-pdf').attach('file', docx, 'libro.docx'));
    const ok = await svc.post('office-to-pdf').attach('file', await officeDocument([paragraph]), 'carta.docx');
    expect(ok.status).toBe(200);
    expect((await pdfinfo(ok.body)).Pages).toBe('1');
  });
});

describe('output budgets of the PDF tools: an engine that rasterises', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    // 0.02 x 1 MB: about 21 KB of output, 84 KB of working files
    svc = await startToolsService('budget_small', { ESIGN_MAX_UPLOAD_MB: '1', ESIGN_TOOL_OUTPUT_FACTOR: '0.02' });
  });
  afterAll(async () => svc?.close());

  const refused = async (res: { status: number; body: unknown }) => {
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'TOOL_OUTPUT_TOO_LARGE', request_id: expect.any(String) });
    expect(await leftovers(svc)).toEqual([]);
  };

  // a normal OCR needs more working room than this budget gives (ocr.test.ts runs it at the default)
  it('ocr: forcing OCR on text pages (each becomes a 300 dpi image) is stopped at the budget', async () => {
    const pdf = await textPdf(3, { line: (p) => Array.from({ length: 40 }, (_, i) => `Page ${p} line ${i} ${'palabras de prueba '.repeat(4)}`) });
    await refused(await svc.post('ocr').field('lang', 'spa').field('mode', 'force').attach('file', pdf, 'a.pdf'));
  });
});
