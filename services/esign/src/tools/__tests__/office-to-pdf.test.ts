import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { leftovers, pdfinfo, pdftotext, startToolsService, withFile, type ToolsService } from './support';

const run = promisify(execFile);

/** A minimal .docx and .ods written with Python's zipfile (the formats are zipped XML). */
async function officeFile(kind: 'docx' | 'ods', text: string): Promise<Buffer> {
  const script = String.raw`
import sys, zipfile, io
kind, text, out = sys.argv[1], sys.argv[2], sys.argv[3]
z = zipfile.ZipFile(out, 'w')
if kind == 'docx':
    z.writestr('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
    z.writestr('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
    z.writestr('word/document.xml', '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>%s</w:t></w:r></w:p></w:body></w:document>' % text)
else:
    z.writestr(zipfile.ZipInfo('mimetype'), 'application/vnd.oasis.opendocument.spreadsheet')
    z.writestr('META-INF/manifest.xml', '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    z.writestr('content.xml', '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Hoja1"><table:table-row><table:table-cell><text:p>%s</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>' % text)
z.close()
`;
  return withFile(Buffer.alloc(0), async (p) => {
    const out = `${p}.${kind}`;
    await run('/usr/bin/python3', ['-c', script, kind, text, out]);
    const { readFileSync } = await import('node:fs');
    return readFileSync(out);
  });
}

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
    expect(leftovers(svc)).toEqual([]);
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
