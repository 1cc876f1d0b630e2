import { leftovers, pdfinfo, pdftotext, qpdfCheck, startToolsService, textPdf, type ToolsService } from './support';

describe('POST /firma/tools/split', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('split');
  });
  afterAll(async () => svc?.close());

  const decode = (item: { data_base64: string }) => Buffer.from(item.data_base64, 'base64');

  it('answers its JSON as JSON, with its length and no ETag (nothing hashes the output)', async () => {
    const res = await svc.post('split').field('every', '1').attach('file', await textPdf(2), 'libro.pdf');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(res.body)));
    expect(res.headers.etag).toBeUndefined();
    expect(res.body.parts).toBe(2);
  });

  it('splits by ranges into one valid PDF per range, each with exactly its pages', async () => {
    const res = await svc.post('split').field('ranges', '1-3, 4-6,7-').attach('file', await textPdf(10), 'libro.pdf');
    expect(res.status).toBe(200);
    expect(res.body.parts).toBe(3);
    expect(res.body.files.map((f: { pages: string; page_count: number }) => [f.pages, f.page_count])).toEqual([
      ['1-3', 3],
      ['4-6', 3],
      ['7-10', 4],
    ]);
    const last = decode(res.body.files[2]);
    expect(res.body.files[2]).toMatchObject({ filename: 'libro-part-3.pdf', content_type: 'application/pdf', size_bytes: last.length });
    expect((await pdfinfo(last)).Pages).toBe('4');
    expect(await qpdfCheck(last)).toContain('No syntax or stream encoding errors');
    const text = await pdftotext(last);
    expect(text).toContain('Page 7 of');
    expect(text).toContain('Page 10 of');
    expect(text).not.toContain('Page 6 of');
  });

  it('splits every N pages, one page per part by default', async () => {
    const pdf = await textPdf(5);
    const byTwo = await svc.post('split').field('every', '2').attach('file', pdf, 'a.pdf');
    expect(byTwo.body.files.map((f: { pages: string }) => f.pages)).toEqual(['1-2', '3-4', '5']);
    const single = await svc.post('split').attach('file', pdf, 'a.pdf');
    expect(single.body.parts).toBe(5);
    expect(await pdftotext(decode(single.body.files[3]))).toContain('Page 4 of');
  });

  it('validates ranges against the page count with 422 naming the page', async () => {
    const res = await svc.post('split').field('ranges', '1-2,9').attach('file', await textPdf(4), 'a.pdf');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'ranges'], type: 'page_out_of_range' });
    expect(res.body.detail[0].msg).toContain('4 pages');
    const syntax = await svc.post('split').field('ranges', 'abc').attach('file', await textPdf(4), 'a.pdf');
    expect(syntax.body.detail[0]).toMatchObject({ loc: ['form', 'ranges'], type: 'pages_syntax' });
    const both = await svc.post('split').field('ranges', '1').field('every', '2').attach('file', await textPdf(4), 'a.pdf');
    expect(both.status).toBe(422);
    expect(await leftovers(svc)).toEqual([]);
  });

  it('splits a 100-page PDF into 100 readable parts', async () => {
    const res = await svc.post('split').attach('file', await textPdf(100), 'big.pdf');
    expect(res.status).toBe(200);
    expect(res.body.parts).toBe(100);
    expect(await pdftotext(decode(res.body.files[99]))).toContain('Page 100 of');
  });
});
