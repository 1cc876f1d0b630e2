import { officeFile } from './office-files';
import { leftovers, pdfinfo, pdftotext, startToolsService, type ToolsService } from './support';

describe('POST /firma/tools/office-to-pdf', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('office');
  });
  afterAll(async () => svc?.close());

  it('converts a .docx and an .ods at the same time, each with its own LibreOffice profile', async () => {
    const [docx, ods] = await Promise.all([officeFile('docx', 'Informe trimestral de ventas'), officeFile('ods', 'Presupuesto anual')]);
    const [a, b] = await Promise.all([
      svc.post('office-to-pdf').attach('file', docx, 'informe.docx'),
      svc.post('office-to-pdf').attach('file', ods, 'presupuesto.ods'),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.headers['content-disposition']).toMatch(/filename="?informe\.pdf"?/);
    expect(await pdftotext(a.body)).toContain('Informe trimestral de ventas');
    expect(await pdftotext(b.body)).toContain('Presupuesto anual');
    expect(Number((await pdfinfo(a.body)).Pages)).toBeGreaterThanOrEqual(1);
    expect(await leftovers(svc)).toEqual([]);
  });

  it('answers 415 for an extension it does not convert, and 422 when the content does not match the extension', async () => {
    const exe = await svc.post('office-to-pdf').attach('file', Buffer.from('MZ\x90\x00'), 'setup.exe');
    expect(exe.status).toBe(415);
    expect(exe.body).toMatchObject({ code: 'UNSUPPORTED_FILE_TYPE' });
    expect(exe.body.detail).toContain('.docx');
    const fake = await svc.post('office-to-pdf').attach('file', Buffer.from('just text, not a zip'), 'report.docx');
    expect(fake.status).toBe(422);
    expect(fake.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'document_invalid' });
  });
});
