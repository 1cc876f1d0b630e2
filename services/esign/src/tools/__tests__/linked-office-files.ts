import { createServer, type Server } from 'node:http';
import { strToU8, zipSync } from 'fflate';

/**
 * Office documents that reach outside themselves while LibreOffice converts them, built
 * here with a zip library: every link points at `url` (a loopback listener the test
 * runs) or at `fileUrl` (a local file with a marker the output must never show).
 */
export interface LinkTargets {
  url: string;
  fileUrl: string;
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * A .docx with: a picture linked from `url` and one from `fileUrl` (external
 * relationships), an INCLUDEPICTURE and an INCLUDETEXT field, a linked OLE object, a
 * hyperlink, and an attached template, all pointing out.
 */
export function linkedDocx({ url, fileUrl }: LinkTargets, text = 'Contrato de arrendamiento'): Buffer {
  const picture = (id: number, rel: string) =>
    `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="${id}" name="Picture ${id}"/>` +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
    `<pic:nvPicPr><pic:cNvPr id="${id}" name="p${id}"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="${rel}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>';
  const field = (instruction: string, result: string) =>
    '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r>' +
    // the instruction split over two runs, as Word writes it
    `<w:r><w:instrText xml:space="preserve"> ${instruction.slice(0, 5)}</w:instrText></w:r><w:r><w:instrText xml:space="preserve">${instruction.slice(5)} </w:instrText></w:r>` +
    `<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${result}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
  const document =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${REL}" ` +
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
    'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><w:body>' +
    `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>` +
    picture(1, 'rIdRemote') +
    picture(2, 'rIdLocal') +
    field(`INCLUDEPICTURE "${url}/field-picture.png" \\d`, 'imagen') +
    field(`INCLUDETEXT "${fileUrl}"`, 'texto incluido') +
    `<w:p><w:r><w:object><v:shape id="ole1" style="width:40pt;height:40pt"><v:imagedata o:href="${url}/vml-href.png"/></v:shape>` +
    '<o:OLEObject Type="Link" ProgID="Word.Document.12" ShapeID="ole1" DrawAspect="Content" r:id="rIdOle" UpdateMode="Always"><o:LinkType>EnhancedMetafile</o:LinkType></o:OLEObject></w:object></w:r></w:p>' +
    '<w:p><w:hyperlink r:id="rIdLink"><w:r><w:t>sitio web</w:t></w:r></w:hyperlink></w:p>' +
    '</w:body></w:document>';
  const rels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    `<Relationship Id="rIdRemote" Type="${REL}/image" Target="${url}/probe.png" TargetMode="External"/>` +
    `<Relationship Id="rIdLocal" Type="${REL}/image" Target="${fileUrl}" TargetMode="External"/>` +
    `<Relationship Id="rIdOle" Type="${REL}/oleObject" Target="${url}/linked-object.docx" TargetMode="External"/>` +
    `<Relationship Id="rIdLink" Type="${REL}/hyperlink" Target="${url}/hyperlink" TargetMode="External"/>` +
    '</Relationships>';
  const settingsRels =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdT" Type="${REL}/attachedTemplate" Target="${url}/template.dotx" TargetMode="External"/></Relationships>`;
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
          '<Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/></Types>',
      ),
      '_rels/.rels': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
      ),
      'word/document.xml': strToU8(document),
      'word/_rels/document.xml.rels': strToU8(rels),
      'word/settings.xml': strToU8(
        `<?xml version="1.0" encoding="UTF-8"?><w:settings xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="${REL}"><w:attachedTemplate r:id="rIdT"/></w:settings>`,
      ),
      'word/_rels/settings.xml.rels': strToU8(settingsRels),
    }),
  );
}

/**
 * An .odt with: a picture from `url` and one from `fileUrl`, an object linked from `url`,
 * a section and a floating frame loading `url`, and a hyperlink to it.
 */
export function linkedOdt({ url, fileUrl }: LinkTargets, text = 'Acta de la reunión'): Buffer {
  const frame = (name: string, inner: string) => `<text:p><draw:frame draw:name="${name}" svg:width="3cm" svg:height="2cm">${inner}</draw:frame></text:p>`;
  const href = (target: string) => `xlink:href="${target}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"`;
  const content =
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" ' +
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2"><office:body><office:text>' +
    `<text:p>${text}</text:p>` +
    frame('remote', `<draw:image ${href(`${url}/odt-image.png`)}/>`) +
    frame('local', `<draw:image ${href(fileUrl)}/>`) +
    frame('object', `<draw:object ${href(`${url}/odt-object`)}/>`) +
    frame('iframe', `<draw:floating-frame ${href(`${url}/odt-frame`)}/>`) +
    `<text:section text:name="linked"><text:section-source ${href(`${url}/odt-section.odt`)}/><text:p>sección</text:p></text:section>` +
    `<text:p><text:a xlink:type="simple" xlink:href="${url}/odt-hyperlink">enlace</text:a></text:p>` +
    '</office:text></office:body></office:document-content>';
  return Buffer.from(
    zipSync({
      mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
      'META-INF/manifest.xml': strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
          '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/>' +
          '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
      ),
      'content.xml': strToU8(content),
    }),
  );
}

/** An SVG picture whose text is `marker`: as a linked picture its text would land in the PDF. */
export const markerSvg = (marker: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="80"><text x="10" y="50" font-size="32">${marker}</text></svg>`;

/** An .rtf with an INCLUDEPICTURE field (a binary-era format: nothing to strip with a zip library). */
export const linkedRtf = ({ url }: LinkTargets, text = 'Informe RTF') =>
  Buffer.from(`{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Helvetica;}}\\f0 ${text}\\par{\\field{\\*\\fldinst INCLUDEPICTURE "${url}/rtf-picture.png" \\\\d}{\\fldrslt imagen}}\\par}`, 'latin1');

/** A loopback HTTP listener that records every request it gets. */
export async function recordingListener(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers['user-agent'] ?? ''}`);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}
