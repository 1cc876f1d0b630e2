import { pdfinfo, qpdfCheck, startToolsService, textPdf, withFile, type ToolsService } from './support';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const xmpOf = (pdf: Uint8Array) => withFile(pdf, async (p) => (await promisify(execFile)('pdfinfo', ['-meta', p])).stdout);

describe('POST /firma/tools/metadata', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('metadata');
  });
  afterAll(async () => svc?.close());

  it('writes the fields to Info and to XMP', async () => {
    const res = await svc
      .post('metadata')
      .field('title', 'Informe anual <2025> & más')
      .field('author', 'María José')
      .field('keywords', 'firma, contrato')
      .attach('file', await textPdf(1, { title: 'Old', author: 'Old author' }), 'a.pdf');
    expect(res.status).toBe(200);
    const info = await pdfinfo(res.body);
    expect(info).toMatchObject({ Title: 'Informe anual <2025> & más', Author: 'María José', Keywords: 'firma, contrato' });
    const xmp = await xmpOf(res.body);
    expect(xmp).toContain('Informe anual &lt;2025&gt; &amp; más');
    expect(xmp).toContain('<dc:creator><rdf:Seq><rdf:li>María José</rdf:li></rdf:Seq></dc:creator>');
    expect(xmp).toContain('<pdf:Keywords>firma, contrato</pdf:Keywords>');
    expect(await qpdfCheck(res.body)).toContain('No syntax or stream encoding errors');
  });

  it('updates an existing XMP packet without losing its other schemas', async () => {
    const first = await svc.post('metadata').field('title', 'Uno').attach('file', await textPdf(1), 'a.pdf');
    const second = await svc.post('metadata').field('title', 'Dos').field('subject', '').attach('file', first.body, 'a.pdf');
    expect(second.status).toBe(200);
    const xmp = await xmpOf(second.body);
    expect(xmp).toContain('Dos');
    expect(xmp).not.toContain('>Uno<');
    expect((await pdfinfo(second.body)).Title).toBe('Dos');
  });

  it('removes a field given empty and leaves absent fields untouched', async () => {
    const res = await svc.post('metadata').field('author', '').attach('file', await textPdf(1, { title: 'Keep me', author: 'Remove me' }), 'a.pdf');
    const info = await pdfinfo(res.body);
    expect(info.Title).toBe('Keep me');
    expect(info.Author).toBeUndefined();
  });

  it('asks for at least one field', async () => {
    const res = await svc.post('metadata').attach('file', await textPdf(1), 'a.pdf');
    expect(res.status).toBe(422);
  });
});
