import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DOMParser } from '@xmldom/xmldom';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { createEngineRunner } from '../engine-runner';
import { PdfInputError } from './errors';
import { OFFICE_PROFILE_XCU } from './office';
import { stripOfficeLinks } from './office-links';
import { leavesPackage, MAX_UNPACKED_BYTES } from './office-package';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

const docx = (parts: Record<string, string>, extra: Zippable = {}) => {
  const files: Zippable = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '<Override PartName="/word/embeddings/oleObject1.bin" ContentType="application/vnd.openxmlformats-officedocument.oleObject"/></Types>',
    ),
    '_rels/.rels': strToU8(`<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
  };
  for (const [name, text] of Object.entries(parts)) files[name] = strToU8(text);
  return zipSync({ ...files, ...extra });
};
const rels = (items: string) => `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
const parts = (data: Uint8Array) => Object.fromEntries(Object.entries(unzipSync(data)).map(([k, v]) => [k, strFromU8(v)]));
const relIds = (xml: string) =>
  Array.from(new DOMParser().parseFromString(xml, 'text/xml').getElementsByTagName('Relationship') as unknown as ArrayLike<{ getAttribute(n: string): string }>).map((r) => r.getAttribute('Id'));

describe('stripOfficeLinks, OOXML', () => {
  it('removes external targets but keeps http(s) and mailto hyperlinks and internal parts', () => {
    const input = docx({
      'word/document.xml': `<w:document ${W}><w:body><w:p><w:r><w:t>hola</w:t></w:r></w:p></w:body></w:document>`,
      'word/_rels/document.xml.rels': rels(
        `<Relationship Id="img" Type="${REL}/image" Target="http://10.0.0.1/x.png" TargetMode="External"/>` +
          `<Relationship Id="file" Type="${REL}/image" Target="file:///etc/passwd" TargetMode="External"/>` +
          `<Relationship Id="unc" Type="${REL}/image" Target="\\\\host\\share\\x.png"/>` +
          `<Relationship Id="noMode" Type="${REL}/image" Target="smb://host/x.png"/>` +
          `<Relationship Id="web" Type="${REL}/hyperlink" Target="https://example.com/" TargetMode="External"/>` +
          `<Relationship Id="mail" Type="${REL}/hyperlink" Target="mailto:a@example.com" TargetMode="External"/>` +
          `<Relationship Id="fileLink" Type="${REL}/hyperlink" Target="file:///etc/shadow" TargetMode="External"/>` +
          `<Relationship Id="tpl" Type="${REL}/attachedTemplate" Target="https://example.com/t.dotx" TargetMode="External"/>` +
          `<Relationship Id="media" Type="${REL}/image" Target="media/image1.png"/>`,
      ),
    });
    const out = stripOfficeLinks({ data: input, kind: 'ooxml' });
    expect(out.removed).toBe(6);
    expect(relIds(parts(out.data)['word/_rels/document.xml.rels']!)).toEqual(['web', 'mail', 'media']);
  });

  it('drops linking fields (split over runs, nested, simple) keeping their results, OLE objects and embeddings', () => {
    const field = (instr: string[], result: string) =>
      `<w:r><w:fldChar w:fldCharType="begin"/></w:r>${instr.map((i) => `<w:r><w:instrText>${i}</w:instrText></w:r>`).join('')}<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${result}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    const input = docx(
      {
        'word/document.xml':
          `<w:document ${W} xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:r="${REL}"><w:body><w:p>` +
          field([' INCLUDEP', 'ICTURE "http://x/y.png" '], 'pic-result') +
          field([' PAGE '], '1') +
          field([' LINK Excel.Sheet.12 "C:\\\\a.xlsx" '], 'link-result') +
          `<w:fldSimple w:instr=" INCLUDETEXT &quot;file:///etc/passwd&quot; "><w:r><w:t>simple-result</w:t></w:r></w:fldSimple>` +
          `<w:fldSimple w:instr=" DATE "><w:r><w:t>today</w:t></w:r></w:fldSimple>` +
          `<w:r><w:object><v:shape><v:imagedata r:id="emf" o:href="file:///tmp/x.emf"/></v:shape><o:OLEObject Type="Embed" r:id="ole"/></w:object></w:r>` +
          '</w:p></w:body></w:document>',
        'word/_rels/document.xml.rels': rels(`<Relationship Id="ole" Type="${REL}/oleObject" Target="embeddings/oleObject1.bin"/><Relationship Id="emf" Type="${REL}/image" Target="media/image1.emf"/>`),
      },
      { 'word/embeddings/oleObject1.bin': new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]) },
    );
    const out = stripOfficeLinks({ data: input, kind: 'ooxml' });
    const p = parts(out.data);
    expect(Object.keys(p)).not.toContain('word/embeddings/oleObject1.bin');
    expect(relIds(p['word/_rels/document.xml.rels']!)).toEqual(['emf']);
    expect(p['[Content_Types].xml']).not.toContain('oleObject1.bin');
    const doc = p['word/document.xml']!;
    expect(doc).not.toMatch(/INCLUDEP|ICTURE|LINK Excel|INCLUDETEXT|OLEObject|file:\/\//);
    expect(doc).toContain('PAGE');
    expect(doc).toContain('DATE');
    for (const kept of ['pic-result', 'link-result', 'simple-result', 'today', 'r:id="emf"']) expect(doc).toContain(kept);
  });

  it('removes DDE and OLE links of external workbooks (.xlsx) and linked objects and pictures of slides (.pptx)', () => {
    const SML = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const xlsx = stripOfficeLinks({
      kind: 'ooxml',
      data: docx({
        'xl/externalLinks/externalLink1.xml': `<externalLink ${SML}><ddeLink ddeService="cmd" ddeTopic="/c calc"><ddeItems/></ddeLink></externalLink>`,
        'xl/externalLinks/externalLink2.xml': `<externalLink ${SML} xmlns:r="${REL}"><oleLink r:id="ole" progId="Excel.Sheet.12"/></externalLink>`,
        'xl/externalLinks/externalLink3.xml': `<externalLink ${SML} xmlns:r="${REL}"><externalBook r:id="book"><sheetNames><sheetName val="Hoja1"/></sheetNames></externalBook></externalLink>`,
        'xl/externalLinks/_rels/externalLink3.xml.rels': rels(`<Relationship Id="book" Type="${REL}/externalLinkPath" Target="file:///C:/secret/book.xlsx" TargetMode="External"/>`),
      }),
    });
    const x = parts(xlsx.data);
    expect(x['xl/externalLinks/externalLink1.xml']).not.toContain('ddeLink');
    expect(x['xl/externalLinks/externalLink2.xml']).not.toContain('oleLink');
    expect(x['xl/externalLinks/externalLink3.xml']).toContain('sheetName');
    expect(relIds(x['xl/externalLinks/_rels/externalLink3.xml.rels']!)).toEqual([]);

    const pptx = stripOfficeLinks({
      kind: 'ooxml',
      data: docx({
        'ppt/slides/slide1.xml': '<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>',
        'ppt/slides/_rels/slide1.xml.rels': rels(
          `<Relationship Id="ole" Type="${REL}/oleObject" Target="http://10.0.0.1/linked.xlsx" TargetMode="External"/>` +
            `<Relationship Id="img" Type="${REL}/image" Target="https://10.0.0.1/pic.png" TargetMode="External"/>` +
            `<Relationship Id="layout" Type="${REL}/slideLayout" Target="../slideLayouts/slideLayout1.xml"/>`,
        ),
      }),
    });
    expect(relIds(parts(pptx.data)['ppt/slides/_rels/slide1.xml.rels']!)).toEqual(['layout']);
  });

  it('returns a package without links byte for byte', () => {
    const input = docx({ 'word/document.xml': `<w:document ${W}><w:body><w:p><w:r><w:t>nada</w:t></w:r></w:p></w:body></w:document>` });
    const out = stripOfficeLinks({ data: input, kind: 'ooxml' });
    expect(out.removed).toBe(0);
    expect(Buffer.from(out.data).equals(Buffer.from(input))).toBe(true);
  });
});

describe('stripOfficeLinks, ODF', () => {
  const odt = (content: string, extra: Zippable = {}) =>
    zipSync({
      mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
      'META-INF/manifest.xml': strToU8(
        '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
          '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="Object 2" manifest:media-type="application/vnd.sun.star.oleobject"/></manifest:manifest>',
      ),
      'content.xml': strToU8(
        '<?xml version="1.0"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
          'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"><office:body><office:text>' +
          content +
          '</office:text></office:body></office:document-content>',
      ),
      ...extra,
    });

  it('removes hrefs that leave the package, linked sections, tables, DDE and frames; keeps package paths and web links', () => {
    const input = odt(
      '<draw:frame><draw:image xlink:href="http://10.0.0.1/a.png"/></draw:frame>' +
        '<draw:frame><draw:image xlink:href="Pictures/kept.png"/></draw:frame>' +
        '<draw:frame><draw:image xlink:href="../../etc/passwd"/></draw:frame>' +
        '<draw:frame><draw:object xlink:href="./Object 1"/></draw:frame>' +
        '<draw:frame><draw:object-ole xlink:href="./Object 2"/></draw:frame>' +
        '<draw:frame><draw:floating-frame xlink:href="http://10.0.0.1/f"/></draw:frame>' +
        '<text:section text:name="s"><text:section-source xlink:href="file:///etc/hosts"/><text:p>cached</text:p></text:section>' +
        '<table:table table:name="t"><table:table-source xlink:href="http://10.0.0.1/t.ods"/></table:table>' +
        '<text:p><text:a xlink:href="https://example.com/">web</text:a><text:a xlink:href="file:///etc/hosts">file</text:a><text:a xlink:href="#Bookmark">here</text:a></text:p>',
      { 'Object 2': new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 1, 2]), 'Pictures/kept.png': new Uint8Array([1]) },
    );
    const out = stripOfficeLinks({ data: input, kind: 'odf' });
    const names = Object.keys(unzipSync(out.data));
    expect(names[0]).toBe('mimetype');
    expect(names).not.toContain('Object 2');
    const p = parts(out.data);
    expect(p['META-INF/manifest.xml']).not.toContain('Object 2');
    const content = p['content.xml']!;
    expect(content).not.toMatch(/10\.0\.0\.1|file:|etc\/passwd|section-source|table-source|floating-frame/);
    for (const kept of ['Pictures/kept.png', './Object 1', 'https://example.com/', '#Bookmark', 'cached']) expect(content).toContain(kept);
    // stored, not deflated, as the format requires of "mimetype"
    expect(Buffer.from(out.data).subarray(8, 10).readUInt16LE(0)).toBe(0);
  });

  it('answers 422 for a part that is not XML, an archive that is not a zip, and one that unpacks too large', () => {
    const bad = odt('<text:p>unclosed');
    expect(() => stripOfficeLinks({ data: bad, kind: 'odf' })).toThrow(PdfInputError);
    expect(() => stripOfficeLinks({ data: new Uint8Array([0x50, 0x4b, 3, 4, 1, 2, 3]), kind: 'odf' })).toThrow(PdfInputError);
    // a deflated entry whose header declares more than the limit (a zip bomb announces itself or is cut at its size)
    const bomb = Buffer.from(zipSync({ 'content.xml': new Uint8Array(1024) }));
    const central = bomb.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(MAX_UNPACKED_BYTES + 1, central + 24);
    bomb.writeUInt32LE(MAX_UNPACKED_BYTES + 1, 22);
    const error = (() => {
      try {
        stripOfficeLinks({ data: bomb, kind: 'odf' });
      } catch (err) {
        return err as PdfInputError;
      }
    })();
    expect(error).toBeInstanceOf(PdfInputError);
    expect(error!.issues[0]).toMatchObject({ type: 'document_invalid', msg: expect.stringContaining('unpacks to more than') });
  });

  it.each([
    ['Pictures/1.png', false],
    ['./Object 1', false],
    ['#Sheet1.A1', false],
    ['', false],
    ['http://127.0.0.1/x', true],
    ['FILE:///etc/passwd', true],
    ['vnd.sun.star.script:Standard.Module1.Main', true],
    ['/etc/passwd', true],
    ['\\\\server\\share', true],
    ['../secret.odt', true],
    ['Pictures/../../x', true],
  ])('leavesPackage(%j) is %s', (value, expected) => {
    expect(leavesPackage(value)).toBe(expected);
  });
});

describe('the LibreOffice profile alone (no stripping, no sandbox)', () => {
  it('refuses a picture linked from a loopback listener, which LibreOffice fetches without it', async () => {
    const requests: string[] = [];
    const server = createServer((req, res) => {
      requests.push(String(req.url));
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const input = docx({
      'word/document.xml':
        `<w:document ${W} xmlns:r="${REL}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>` +
        '<w:p><w:r><w:t>perfil</w:t></w:r></w:p><w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="P"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
        '<pic:nvPicPr><pic:cNvPr id="1" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="img"/></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p></w:body></w:document>',
      'word/_rels/document.xml.rels': rels(`<Relationship Id="img" Type="${REL}/image" Target="${url}/profile-probe.png" TargetMode="External"/>`),
    });
    const runner = createEngineRunner();
    const convert = (profileXcu: string | null) =>
      runner.withTempDir(async (dir) => {
        const profile = join(dir, 'profile');
        await mkdir(join(profile, 'user'), { recursive: true });
        if (profileXcu) await writeFile(join(profile, 'user', 'registrymodifications.xcu'), profileXcu);
        await writeFile(join(dir, 'in.docx'), input);
        await runner.runChecked('libreoffice', [`-env:UserInstallation=${pathToFileURL(profile).href}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', dir, join(dir, 'in.docx')], {
          cwd: dir,
          env: { HOME: dir },
        });
        return (await readdir(dir)).includes('in.pdf');
      });
    try {
      expect(await convert(OFFICE_PROFILE_XCU)).toBe(true);
      expect(requests).toEqual([]);
      // the control: LibreOffice's defaults fetch it
      expect(await convert(null)).toBe(true);
      expect(requests).toContain('/profile-probe.png');
    } finally {
      await runner.close();
      await new Promise((done) => server.close(done));
    }
  });
});
