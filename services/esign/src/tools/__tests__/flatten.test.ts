import { formPdf, pdftotext, qpdfCheck, qpdfJson, qpdfUncompressed, startToolsService, type ToolsService } from './support';

describe('POST /firma/tools/flatten', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('flatten');
  });
  afterAll(async () => svc?.close());

  it('turns form fields into page content: no AcroForm, no widgets, values still visible', async () => {
    const form = await formPdf();
    expect((await qpdfJson(form, ['acroform'])).acroform.hasacroform).toBe(true);
    const res = await svc.post('flatten').attach('file', form, 'form.pdf');
    expect(res.status).toBe(200);
    const json = await qpdfJson(res.body, ['acroform', 'pages']);
    expect(json.acroform).toMatchObject({ hasacroform: false, fields: [] });
    const raw = await qpdfUncompressed(res.body);
    expect(raw).not.toContain('/AcroForm');
    expect(raw).not.toMatch(/\/Subtype\s*\/Widget/);
    expect(await pdftotext(res.body)).toContain('Lucia Fernandez');
    expect(await qpdfCheck(res.body)).toContain('No syntax or stream encoding errors');
  });
});
