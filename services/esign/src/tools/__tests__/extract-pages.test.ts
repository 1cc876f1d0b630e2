import { pdfinfo, pdftotext, qpdfCheck, startToolsService, textPdf, type ToolsService } from './support';

describe('POST /firma/tools/extract-pages', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('extract', { ESIGN_MAX_UPLOAD_MB: '1' });
  });
  afterAll(async () => svc?.close());

  it('answers a PDF with the selected pages in the order given', async () => {
    const res = await svc.post('extract-pages').field('pages', '5,1-2').attach('file', await textPdf(6), 'doc.pdf');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?doc-pages\.pdf"?$/);
    expect(res.headers['x-page-count']).toBe('3');
    expect((await pdfinfo(res.body)).Pages).toBe('3');
    expect(await qpdfCheck(res.body)).toContain('No syntax or stream encoding errors');
    const pages = (await pdftotext(res.body)).split('\f');
    expect(pages[0]).toContain('Page 5 of');
    expect(pages[1]).toContain('Page 1 of');
    expect(pages[2]).toContain('Page 2 of');
  });

  it('refuses pages beyond the end with 422, and extracts page 1 when no selection is sent (interface §4.3 default)', async () => {
    const beyond = await svc.post('extract-pages').field('pages', '2-8').attach('file', await textPdf(3), 'doc.pdf');
    expect(beyond.status).toBe(422);
    expect(beyond.body.detail[0]).toMatchObject({ loc: ['form', 'pages'], type: 'page_out_of_range' });
    const missing = await svc.post('extract-pages').attach('file', await textPdf(3), 'doc.pdf');
    expect(missing.status).toBe(200);
    expect(missing.headers['x-page-count']).toBe('1');
    expect(await pdftotext(missing.body)).toContain('Page 1 of');
  });

  it('answers a file over the upload limit with 413 before any engine runs', async () => {
    const big = Buffer.concat([await textPdf(1), Buffer.alloc(1024 * 1024 + 10, 0x20)]);
    const res = await svc.post('extract-pages').field('pages', '1').attach('file', big, 'big.pdf');
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});
