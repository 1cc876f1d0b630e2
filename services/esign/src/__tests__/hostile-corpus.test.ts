import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import request from 'supertest';
import { createLogger } from '@firma-riesgo/service-kit';
import { captureLogLines, startHealthProbe } from '@firma-riesgo/service-kit/testing';
import { tempDirsSettled } from '@firma-riesgo/pdf-core';
import { cutIdatPng, makePng, truncatedPng } from '../../../../packages/pdf-core/src/images/__tests__/png-fixtures';
import { encryptPdf, textPdf } from '../tools/__tests__/support';
import { noisePagePdf, sharedResourcePdf } from '../tools/__tests__/amplifying-inputs';
import { BUILT_IN_TEMPLATES_DIR } from '../contracts/template-catalogue';
import { cyclicPageTree, flateBomb, truncated, zeroPages } from './hostile/pdf-fixtures';
import { linkedDocx, linkedOdt, linkedRtf, recordingListener } from '../tools/__tests__/linked-office-files';
import { linkOf, mailText, otpOf, startTestEsign, type TestEsign } from './support';

/**
 * The hostile-input corpus of esign: every input a penetration test threw at
 * the service, the ones it used to fail and the ones it already handled, kept as a table.
 * Each case goes through the HTTP API and must get a 4xx in the documented body, or the
 * documented success; never a 5xx. Meanwhile /health keeps answering within 2 s, and
 * afterwards no temp file is left and the logs hold no email address or name.
 */

type Api = () => ReturnType<typeof request>;
interface Case {
  name: string;
  send: (api: Api, ctx: Ctx) => Promise<request.Response>;
  /** Acceptable statuses: 4xx in the documented body, or the documented success. */
  expect: number[];
  check?: (res: request.Response) => void;
}
interface Ctx {
  key: string;
  pdf: Buffer;
}

const MADE_UP_TOKEN = 'x'.repeat(43);
const EMAIL = 'corpus.person@example.test';
const NAME = 'Zacarías Corpus-Persona';
const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>';

const upload = (api: Api, ctx: Ctx, file: Buffer, filename = 'a.pdf', extra: Record<string, string> = {}) => {
  const req = api().post('/firma/documentos').set('authorization', ctx.key);
  for (const [k, v] of Object.entries(extra)) req.field(k, v);
  return req.attach('file', file, { filename, contentType: 'application/pdf' });
};
const raw = (api: Api, path: string, contentType: string, body: string | Buffer, headers: Record<string, string> = {}) => {
  const req = api().post(path).set('content-type', contentType);
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  return req.send(body);
};
const tool = (api: Api, name: string, fields: Record<string, string>, file?: { data: Buffer; name: string; field?: string }) => {
  const req = api().post(`/firma/tools/${name}`);
  for (const [k, v] of Object.entries(fields)) req.field(k, v);
  return file ? req.attach(file.field ?? 'file', file.data, file.name) : req;
};
const verifyUpload = (api: Api, file: Buffer) => api().post('/verificar').set('accept', 'application/json').attach('file', file, { filename: 'firmado.pdf', contentType: 'application/pdf' });
/** A PDF made only of the given signature dictionaries (objects 1..n). */
const sigObjects = (dicts: string[]) => Buffer.from(`%PDF-1.7\n${dicts.map((d, i) => `${i + 1} 0 obj\n${d}\nendobj\n`).join('')}trailer\n<< /Size ${dicts.length + 1} >>\n%%EOF\n`, 'latin1');
const json = (api: Api, ctx: Ctx, body: unknown) => api().post('/firma/solicitudes').set('authorization', ctx.key).send(body as object);

const BROKEN_MULTIPART: [string, string, string][] = [
  ['no boundary parameter', 'multipart/form-data', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--x--\r\n'],
  ['a boundary that never appears', 'multipart/form-data; boundary=expected', '--other\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--other--\r\n'],
  ['an unterminated part', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 and then nothing'],
  ['garbage', 'multipart/form-data; boundary=x', '\u0000\u0001garbage\r\n\r\n--'],
];

/**
 * Issue 27, defect 1: an office document whose links point at a loopback listener and at
 * a local file, sent to office-to-pdf with no key. The listener must hear nothing (the
 * local file's bytes are checked with pdftotext in tools/__tests__/office-links.test.ts).
 */
const linkedOffice = async (api: Api, build: (t: { url: string; fileUrl: string }) => Buffer, name: string) => {
  const listener = await recordingListener();
  try {
    const res = await tool(api, 'office-to-pdf', {}, { data: build({ url: listener.url, fileUrl: 'file:///etc/passwd' }), name });
    expect(listener.requests).toEqual([]);
    return res;
  } finally {
    await listener.close();
  }
};
/** A .docx whose document part claims more than office-to-pdf unpacks (a zip bomb announces its size). */
const oversizedDocx = () => {
  const zip = linkedDocx({ url: 'http://127.0.0.1:9', fileUrl: 'file:///etc/passwd' });
  const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  zip.writeUInt32LE(0xfffffff0, central + 24);
  return zip;
};

const CASES: Case[] = [
  // office-to-pdf with linked content: nothing outside the document is fetched
  { name: 'tool office-to-pdf: .docx with external pictures, fields, OLE link, template', send: (api) => linkedOffice(api, linkedDocx, 'linked.docx'), expect: [200, 422] },
  { name: 'tool office-to-pdf: .odt with external pictures, object, section, frame', send: (api) => linkedOffice(api, linkedOdt, 'linked.odt'), expect: [200, 422] },
  { name: 'tool office-to-pdf: .rtf with an INCLUDEPICTURE field', send: (api) => linkedOffice(api, linkedRtf, 'linked.rtf'), expect: [200, 422] },
  { name: 'tool office-to-pdf: .docx that unpacks past the limit', send: (api) => tool(api, 'office-to-pdf', {}, { data: oversizedDocx(), name: 'bomb.docx' }), expect: [422] },
  {
    name: 'tool office-to-pdf: .docx whose document part is not XML',
    send: (api) => {
      const zip = linkedDocx({ url: 'http://127.0.0.1:9', fileUrl: 'file:///etc/passwd' });
      return tool(api, 'office-to-pdf', {}, { data: Buffer.from(zipSync({ ...unzipSync(zip), 'word/document.xml': strToU8('<w:document><w:body') })), name: 'broken.docx' });
    },
    expect: [422],
  },
  // uploads
  { name: 'upload: not a PDF', send: (api, ctx) => upload(api, ctx, Buffer.from('hello, not a pdf')), expect: [422] },
  { name: 'upload: truncated PDF', send: async (api, ctx) => upload(api, ctx, truncated(ctx.pdf)), expect: [422] },
  { name: 'upload: encrypted PDF', send: async (api, ctx) => upload(api, ctx, await encryptPdf(ctx.pdf, 'u', 'o')), expect: [422] },
  { name: 'upload: zero pages', send: (api, ctx) => upload(api, ctx, zeroPages()), expect: [422] },
  { name: 'upload: cyclic page tree', send: (api, ctx) => upload(api, ctx, cyclicPageTree()), expect: [200, 422] },
  { name: 'upload: flate bomb', send: (api, ctx) => upload(api, ctx, flateBomb()), expect: [200, 422] },
  { name: 'upload: over ESIGN_MAX_UPLOAD_MB', send: (api, ctx) => upload(api, ctx, Buffer.concat([ctx.pdf, Buffer.alloc(3 * 1024 * 1024)])), expect: [413] },
  ...BROKEN_MULTIPART.map(([what, type, body]): Case => ({
    name: `upload: broken multipart, ${what}`,
    send: (api, ctx) => raw(api, '/firma/documentos', type, body, { authorization: ctx.key }),
    expect: [400, 422],
  })),
  ...BROKEN_MULTIPART.map(([what, type, body]): Case => ({ name: `tool: broken multipart, ${what}`, send: (api) => raw(api, '/firma/tools/info', type, body), expect: [400, 422] })),
  // busboy refuses the part header itself (400); past it, the field check names the file (422)
  { name: 'upload: NUL in the file name', send: (api, ctx) => upload(api, ctx, ctx.pdf, 'a\u0000b.pdf'), expect: [400, 422] },
  { name: 'upload: NUL in the title', send: (api, ctx) => upload(api, ctx, ctx.pdf, 'a.pdf', { title: 'título\u0000' }), expect: [422] },
  {
    name: 'upload: UTF-8 file name kept exactly',
    send: (api, ctx) => upload(api, ctx, ctx.pdf, 'ünï©ødé 文件 🔥.pdf'),
    expect: [200],
    check: (res) => expect(res.body.filename).toBe('ünï©ødé 文件 🔥.pdf'),
  },
  { name: 'upload: XSS in the title is stored as text', send: (api, ctx) => upload(api, ctx, ctx.pdf, 'x.pdf', { title: XSS }), expect: [200] },
  // JSON bodies
  { name: 'json: larger than ESIGN_JSON_LIMIT', send: (api, ctx) => json(api, ctx, { document_id: 'x', message: 'x'.repeat(2 * 1024 * 1024) }), expect: [413] },
  {
    name: 'json: nested 100 000 levels deep',
    send: (api, ctx) => raw(api, '/firma/solicitudes', 'application/json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, { authorization: ctx.key }),
    expect: [400, 413, 422],
  },
  { name: 'json: malformed', send: (api, ctx) => raw(api, '/firma/solicitudes', 'application/json', '{"document_id":', { authorization: ctx.key }), expect: [422] },
  {
    name: 'json: Content-Encoding gzip on a body that is not gzip',
    send: (api, ctx) => raw(api, '/firma/solicitudes', 'application/json', '{"a":1}', { authorization: ctx.key, 'content-encoding': 'gzip' }),
    expect: [400],
  },
  {
    name: 'json: an unsupported Content-Encoding',
    send: (api, ctx) => raw(api, '/firma/solicitudes', 'application/json', '{"a":1}', { authorization: ctx.key, 'content-encoding': 'x-unknown' }),
    expect: [415],
  },
  {
    name: 'json: an unsupported charset',
    send: (api, ctx) => raw(api, '/firma/solicitudes', 'application/json; charset=klingon', '{"a":1}', { authorization: ctx.key }),
    expect: [415],
  },
  { name: 'json: NUL in signee_name', send: (api, ctx) => json(api, ctx, { document_id: '00000000-0000-4000-8000-000000000000', signee_email: EMAIL, signee_name: `${NAME}\u0000` }), expect: [422] },
  { name: 'json: NUL in message', send: (api, ctx) => json(api, ctx, { document_id: '00000000-0000-4000-8000-000000000000', signee_email: EMAIL, message: 'hola\u0000' }), expect: [422] },
  { name: 'json: XSS in the email', send: (api, ctx) => json(api, ctx, { document_id: '00000000-0000-4000-8000-000000000000', signee_email: XSS }), expect: [422] },
  // the signee flow
  {
    name: 'confirm: truncated PNG, made-up link',
    send: (api) => api().post(`/firma/firmar/${MADE_UP_TOKEN}/confirmar`).type('form').send({ otp_code: '123456', declaration_accepted: 'true', firma_imagen_b64: truncatedPng().toString('base64') }),
    expect: [404],
  },
  {
    name: 'confirm: PNG with cut pixel data, made-up link',
    send: (api) => api().post(`/firma/firmar/${MADE_UP_TOKEN}/confirmar`).type('form').send({ otp_code: '123456', declaration_accepted: 'true', firma_imagen_b64: cutIdatPng().toString('base64') }),
    expect: [404],
  },
  { name: 'signing page: XSS in the token', send: (api) => api().get(`/firma/firmar/${encodeURIComponent(XSS)}`), expect: [404, 422] },
  // tools, without a key
  { name: 'tool info: not a PDF', send: (api) => tool(api, 'info', {}, { data: Buffer.from('GIF89a'), name: 'a.gif' }), expect: [422] },
  { name: 'tool info: encrypted, no password', send: async (api, ctx) => tool(api, 'info', {}, { data: await encryptPdf(ctx.pdf, 'u', 'o'), name: 'e.pdf' }), expect: [200, 422] },
  { name: 'tool info: cyclic page tree', send: (api) => tool(api, 'info', {}, { data: cyclicPageTree(), name: 'c.pdf' }), expect: [200, 422] },
  { name: 'tool info: zero pages', send: (api) => tool(api, 'info', {}, { data: zeroPages(), name: 'z.pdf' }), expect: [200, 422] },
  { name: 'tool info: flate bomb', send: (api) => tool(api, 'info', {}, { data: flateBomb(), name: 'b.pdf' }), expect: [200, 422] },
  { name: 'tool pdf-to-images: flate bomb', send: (api) => tool(api, 'pdf-to-images', {}, { data: flateBomb(), name: 'b.pdf' }), expect: [200, 422] },
  { name: 'tool flatten: cyclic page tree', send: (api) => tool(api, 'flatten', {}, { data: cyclicPageTree(), name: 'c.pdf' }), expect: [200, 422] },
  { name: 'tool redact: catastrophic regex', send: (api, ctx) => tool(api, 'redact', { patterns: '(a+)+$' }, { data: ctx.pdf, name: 'r.pdf' }), expect: [200, 422] },
  { name: 'tool redact: invalid regex', send: (api, ctx) => tool(api, 'redact', { patterns: '([a-' }, { data: ctx.pdf, name: 'r.pdf' }), expect: [422] },
  { name: 'tool split: garbage ranges', send: (api, ctx) => tool(api, 'split', { ranges: '9-1,a-b,,--' }, { data: ctx.pdf, name: 's.pdf' }), expect: [422] },
  { name: 'tool compress: XSS as the level', send: (api, ctx) => tool(api, 'compress', { level: XSS }, { data: ctx.pdf, name: 'c.pdf' }), expect: [422] },
  {
    name: 'tool images-to-pdf: a 20000×20000 PNG',
    send: (api) => tool(api, 'images-to-pdf', {}, { data: makePng(20000, 20000, Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])), name: 'huge.png', field: 'files' }),
    expect: [422],
  },
  { name: 'tool images-to-pdf: a truncated PNG', send: (api) => tool(api, 'images-to-pdf', {}, { data: truncatedPng(), name: 't.png', field: 'files' }), expect: [422] },
  { name: 'tool protect: a password starting with -', send: (api, ctx) => tool(api, 'protect', { password: '-secret' }, { data: ctx.pdf, name: 'p.pdf' }), expect: [200] },
  { name: 'tool protect: a password starting with @', send: (api, ctx) => tool(api, 'protect', { password: '@/etc/passwd' }, { data: ctx.pdf, name: 'p.pdf' }), expect: [200] },
  { name: 'tool metadata: NUL in the title', send: (api, ctx) => tool(api, 'metadata', { title: 'a\u0000b' }, { data: ctx.pdf, name: 'm.pdf' }), expect: [422] },
  { name: 'tool watermark: XSS text', send: (api, ctx) => tool(api, 'watermark', { text: XSS }, { data: ctx.pdf, name: 'w.pdf' }), expect: [200, 422] },
  { name: 'tool: no form at all', send: (api) => api().post('/firma/tools/info'), expect: [400, 415, 422] },
  // POST /verificar: any uploaded PDF, no key; a report or a 422, never a 5xx
  { name: 'verify: no file', send: (api) => api().post('/verificar').set('accept', 'application/json').field('x', 'y'), expect: [422] },
  { name: 'verify: not a PDF', send: (api) => verifyUpload(api, Buffer.from('hello, not a pdf')), expect: [422] },
  { name: 'verify: truncated PDF', send: (api, ctx) => verifyUpload(api, truncated(ctx.pdf)), expect: [200], check: (res) => expect(res.body.valid).toBe(false) },
  { name: 'verify: encrypted PDF', send: async (api, ctx) => verifyUpload(api, await encryptPdf(ctx.pdf, 'u', 'o')), expect: [200, 422] },
  {
    name: 'verify: garbage CMS, ByteRange outside the file, no ByteRange',
    send: (api) => verifyUpload(api, sigObjects(['<< /Type /Sig /ByteRange [0 10 999999999 5] /Contents <30ffff> >>', '<< /Type /Sig /Contents <3003020101> >>'])),
    expect: [200],
    check: (res) => expect(res.body).toMatchObject({ valid: false, signatures: [{ integrity: false }, { integrity: false }] }),
  },
  {
    name: 'verify: thousands of signature fields',
    send: (api) => verifyUpload(api, sigObjects(Array.from({ length: 5000 }, (_, i) => `<< /Type /Sig /ByteRange [0 1 2 ${i}] /Contents <30> >>`))),
    expect: [200],
    check: (res) => expect(res.body.valid).toBe(false),
  },
  { name: 'verify: over ESIGN_MAX_UPLOAD_MB', send: (api, ctx) => verifyUpload(api, Buffer.concat([ctx.pdf, Buffer.alloc(3 * 1024 * 1024)])), expect: [413] },
  // contracts: no key; the variables are validated against the template's schema, values are text
  { name: 'contracts: malformed JSON', send: (api) => raw(api, '/firma/contratos/prestacion-servicios/pdf', 'application/json', '{"partidas": [', {}), expect: [422] },
  { name: 'contracts: __proto__ and constructor keys', send: (api) => raw(api, '/firma/contratos/prestacion-servicios/pdf', 'application/json', '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}'), expect: [422] },
  { name: 'contracts: 20,000 nested arrays', send: (api) => raw(api, '/firma/contratos/prestacion-servicios/pdf', 'application/json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`), expect: [422] },
  {
    name: 'contracts: 100,000 items of a table',
    send: (api) => raw(api, '/firma/contratos/prestacion-servicios/pdf', 'application/json', JSON.stringify({ partidas: Array.from({ length: 100_000 }, () => ({ concepto: 'x', cantidad: 1, precio_unitario: 1, iva: 21 })) })),
    expect: [413, 422],
  },
  { name: 'contracts: numbers past every bound', send: (api) => raw(api, '/firma/contratos/prestacion-servicios/pdf', 'application/json', '{"partidas": [{"concepto": "x", "cantidad": 1e308, "precio_unitario": 1e308, "iva": 21}]}'), expect: [422] },
  { name: 'contracts: a path-traversal template id', send: (api) => api().post('/firma/contratos/..%2F..%2Fetc%2Fpasswd/pdf').send({}), expect: [404] },
  {
    name: 'contracts: markup and template syntax as a name in a valid contract',
    send: (api) => {
      const { example } = JSON.parse(readFileSync(join(BUILT_IN_TEMPLATES_DIR, 'consentimiento-rgpd', 'template.json'), 'utf8'));
      return api().post('/firma/contratos/consentimiento-rgpd/pdf').send({ ...example, interesado: { ...example.interesado, nombre: `${XSS} {{7*7}} \${1+1}` } });
    },
    expect: [200],
    check: (res) => expect(res.headers['content-type']).toBe('application/pdf'),
  },
  // the dashboard's session cookie, mangled (an API client: the missing-header 422)
  { name: 'admin dashboard: a %E0 session cookie', send: (api) => api().get('/admin/').set('cookie', 'esign_admin=%E0'), expect: [422] },
  { name: 'admin dashboard: a same-length multibyte session signature', send: (api) => api().get('/admin/').set('cookie', `esign_admin=k.9999999999999.${'%C3%A9'.repeat(43)}`), expect: [422] },
  { name: 'admin logout: a %E0 cookie and a multibyte CSRF token', send: (api) => api().post('/admin/logout').set('cookie', 'esign_admin=%E0').type('form').send({ csrf: 'é'.repeat(43) }), expect: [403] },
  // output amplification; the budget here is 4 x 2 MB (ESIGN_TOOL_OUTPUT_FACTOR x ESIGN_MAX_UPLOAD_MB)
  {
    name: 'tool split: a 1 MB page copied into 60 parts (80 MB before the output budget)',
    send: async (api) => tool(api, 'split', { ranges: Array(60).fill('1-1').join(',') }, { data: await sharedResourcePdf(1, 1024 * 1024), name: 'a.pdf' }),
    expect: [413],
    check: (res) => expect(res.body.code).toBe('TOOL_OUTPUT_TOO_LARGE'),
  },
  {
    name: 'tool pdf-to-images: a page of noise rendered again and again',
    send: async (api) => tool(api, 'pdf-to-images', { dpi: '150', pages: Array(20).fill('1').join(',') }, { data: await noisePagePdf(800), name: 'a.pdf' }),
    expect: [413],
    check: (res) => expect(res.body.code).toBe('TOOL_OUTPUT_TOO_LARGE'),
  },
  // erasure: a tenant key cannot erase a tenant; a made-up or malformed document id is simply missing
  { name: 'erasure: tenant erasure with a tenant key', send: (api, ctx) => api().delete('/admin/tenants/acme/data').set('authorization', ctx.key), expect: [403] },
  { name: 'erasure: signed-pdf of a made-up document', send: (api, ctx) => api().get('/firma/documentos/00000000-0000-4000-8000-000000000000/signed-pdf').set('authorization', ctx.key), expect: [404] },
  { name: 'erasure: signed-pdf of a malformed id', send: (api, ctx) => api().get(`/firma/documentos/${encodeURIComponent("' or 1=1 --")}/signed-pdf`).set('authorization', ctx.key), expect: [404, 422] },
  // keys: self-service and superadmin key routes with a tenant key
  { name: 'keys: a 10 000-character label', send: (api, ctx) => api().post('/firma/claves').set('authorization', ctx.key).send({ label: 'x'.repeat(10_000) }), expect: [422] },
  { name: 'keys: an expiry that is not a date', send: (api, ctx) => api().post('/firma/claves').set('authorization', ctx.key).send({ expires_at: 'tomorrow' }), expect: [422] },
  { name: 'keys: revoke a malformed key id', send: (api, ctx) => api().delete(`/firma/claves/${encodeURIComponent("' or 1=1 --")}`).set('authorization', ctx.key), expect: [404, 422] },
  { name: 'keys: rotate with a tenant key', send: (api, ctx) => api().post('/admin/keys/00000000-0000-4000-8000-000000000000/rotate').set('authorization', ctx.key).send({ overlap_hours: 'forever' }), expect: [403] },
];

// Issue 27, limits for every caller (esbounds): a logo that declares 400 megapixels, and webhook
// targets ipaddr.js 1.x called unicast or that carry a private IPv4; refused without naming the address.
CASES.push(
  {
    name: 'branding: decompression-bomb PNG logo (20000×20000 declared)',
    send: async (api, ctx) => {
      const { bombPng } = await import('../../../../packages/pdf-core/src/images/__tests__/png-fixtures');
      return api().put('/firma/marca').set('authorization', ctx.key).attach('logo', bombPng(20_000), { filename: 'bomb.png', contentType: 'image/png' });
    },
    expect: [422],
    check: (res) => expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'logo'], type: 'image_too_large' }),
  },
  ...[
    ['benchmarking 198.18/15', '198.18.0.1', '198.18'],
    ['IPv6 site-local', '[fec0::1]', 'fec0'],
    ['IPv4-compatible loopback', '[::127.0.0.1]', '127.0.0.1'],
    ['IPv4-mapped loopback', '[::ffff:7f00:1]', '127.0.0.1'],
    ['NAT64 of loopback', '[64:ff9b::7f00:1]', '127.0.0.1'],
    ['6to4 of RFC 1918', '[2002:c0a8:101::1]', '192.168'],
    ['local-use NAT64', '[64:ff9b:1::a00:1]', '10.0.0.1'],
  ].map(([what, host, leak]): Case => ({
    name: `webhook: target ${what}`,
    send: (api, ctx) => api().post('/firma/webhooks').set('authorization', ctx.key).send({ url: `https://${host}/hook` }),
    expect: [422],
    check: (res) => {
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url_private' });
      expect(JSON.stringify(res.body)).not.toContain(leak!);
    },
  })),
);

describe('the hostile-input corpus of esign', () => {
  let env: TestEsign;
  const tmp = mkdtempSync(join(tmpdir(), 'corpus-'));
  const logs = captureLogLines();
  const logLines = logs.lines;
  const ctx = {} as Ctx;
  let prober: ReturnType<typeof startHealthProbe> | undefined;
  let health = { probes: 0, failures: [] as string[] };

  beforeAll(async () => {
    const logger = createLogger({ service: 'esign', level: 'debug', destination: logs.destination });
    env = await startTestEsign({
      name: 'esign_hostile_corpus',
      logger,
      env: { ESIGN_TMP_DIR: tmp, ESIGN_MAX_UPLOAD_MB: '2', ESIGN_TOOLS_RATE_LIMIT: '100000', LOG_LEVEL: 'debug' },
    });
    ctx.key = await env.keyFor('acme');
    ctx.pdf = await textPdf(2, { line: (p) => [`Página ${p}`, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'] });

    // a scripted flow with personal data, so the log check below has something to miss
    const api = () => request(env.rt.server!);
    const up = await upload(api, ctx, ctx.pdf, 'flujo.pdf');
    await json(api, ctx, { document_id: up.body.document_id, signee_email: EMAIL, signee_name: NAME }).expect(200);
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(EMAIL) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).type('form').send({ declaration_accepted: 'true' }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(EMAIL) && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).type('form').send({ otp_code: '000000' === code ? '111111' : '000000', declaration_accepted: 'true' });
    await api().post(`/firma/firmar/${token}/confirmar`).type('form').send({ otp_code: code, declaration_accepted: 'true' }).expect(200);

    // /health, probed the whole time the corpus runs
    prober = startHealthProbe(`${env.rt.url}/health`);
  });

  afterAll(async () => {
    await prober?.stop();
    await env?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const res = await c.send(() => request(env.rt.server!), ctx);
    expect({ status: res.status, allowed: c.expect.includes(res.status) }).toEqual({ status: res.status, allowed: true });
    expect(res.status).toBeLessThan(500);
    if (res.status === 422) {
      expect(Array.isArray(res.body.detail)).toBe(true);
      for (const issue of res.body.detail) expect(Object.keys(issue).sort()).toEqual(['loc', 'msg', 'type']);
    } else if (res.status >= 400) {
      expect(res.body).toEqual({ detail: expect.any(String), code: expect.any(String), request_id: expect.any(String) });
    }
    c.check?.(res);
  });

  it('escapes what the corpus stored when it is shown', async () => {
    const page = await request(env.rt.server!).get('/firma/mis-documentos').set('authorization', ctx.key);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('kept /health answering within 2 s throughout, left no temp file, and logged no email address or name', async () => {
    health = await prober!.stop();
    expect(health.probes).toBeGreaterThan(0);
    expect(health.failures).toEqual([]);
    await tempDirsSettled(); // a call's temp dir goes right after its answer
    expect(readdirSync(tmp)).toEqual([]);
    expect(logLines.length).toBeGreaterThan(10);
    const log = logLines.join('');
    expect(log).not.toContain(EMAIL);
    expect(log).not.toContain('corpus.person');
    expect(log).not.toContain('Zacarías');
    expect(log).not.toContain('Corpus-Persona');
  });
});
