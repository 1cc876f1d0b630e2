import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { withFile } from './support';

const run = promisify(execFile);

/** A minimal .docx and .ods written with Python's zipfile (the formats are zipped XML). */
export async function officeFile(kind: 'docx' | 'ods', text: string): Promise<Buffer> {
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

/** A .docx of the given paragraphs, deflated as office suites write it (repeated text zips to almost nothing). */
export async function officeDocument(paragraphs: string[]): Promise<Buffer> {
  const script = String.raw`
import sys, zipfile, json
paras, out = json.load(open(sys.argv[1])), sys.argv[2]
esc = lambda t: t.replace('&', '&amp;').replace('<', '&lt;')
z = zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED)
z.writestr('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
z.writestr('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
z.writestr('word/document.xml', '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>%s</w:body></w:document>' % ''.join('<w:p><w:r><w:t>%s</w:t></w:r></w:p>' % esc(p) for p in paras))
z.close()
`;
  return withFile(Buffer.from(JSON.stringify(paragraphs)), async (p) => {
    const out = `${p}.docx`;
    await run('/usr/bin/python3', ['-c', script, p, out]);
    const { readFileSync } = await import('node:fs');
    return readFileSync(out);
  }, 'paragraphs.json');
}
