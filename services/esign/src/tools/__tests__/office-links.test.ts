import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import request from 'supertest';
import { leftovers, pdftotext, startToolsService, type ToolsService } from './support';
import { linkedDocx, linkedOdt, linkedRtf, markerSvg, recordingListener, type LinkTargets } from './linked-office-files';

/**
 * Issue 27, defect 1: office-to-pdf, called with no key, made LibreOffice fetch a .docx's
 * external picture from a loopback listener, and read local files into the PDF. Now
 * links are stripped, the LibreOffice profile refuses linked content, and the engines run
 * without network in the sandbox; each layer alone already holds.
 */
const MARKER = 'LOCALFILEMARKER7Q2X';

/** POST /firma/tools/office-to-pdf with no key, as anyone on the internet can. */
const anonymous = (svc: ToolsService, data: Buffer, name: string) =>
  request(svc.rt.server!).post('/firma/tools/office-to-pdf').attach('file', data, name).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const body = Buffer.concat(chunks);
      done(null, String(res.headers['content-type']).includes('json') ? JSON.parse(body.toString('utf8')) : body);
    });
  });

describe.each([
  ['in the sandbox', 'bwrap'],
  // where namespaces are refused: the stripping and the profile still hold
  ['without the sandbox', 'off'],
])('office-to-pdf with linked content, %s', (_label, sandbox) => {
  let svc: ToolsService;
  let listener: Awaited<ReturnType<typeof recordingListener>>;
  let files: string;
  let targets: LinkTargets;

  beforeAll(async () => {
    svc = await startToolsService(`office_links_${sandbox}`, { ESIGN_ENGINE_SANDBOX: sandbox });
    listener = await recordingListener();
    files = mkdtempSync(join(tmpdir(), 'office-links-'));
    writeFileSync(join(files, 'secret.svg'), markerSvg(MARKER));
    targets = { url: listener.url, fileUrl: pathToFileURL(join(files, 'secret.svg')).href };
  });
  afterAll(async () => {
    await svc?.close();
    await listener?.close();
    rmSync(files, { recursive: true, force: true });
  });

  it(`runs the engines ${sandbox === 'off' ? 'unsandboxed, as configured' : 'in the sandbox'}`, () => {
    expect(svc.rt.tools.runner.sandbox).toBe(sandbox === 'off' ? 'none' : 'bwrap');
  });

  it.each([
    ['.docx', 'linked.docx', () => linkedDocx(targets)],
    ['.odt', 'linked.odt', () => linkedOdt(targets)],
  ])('converts a %s whose pictures, fields, objects and links point at a listener and a local file: nothing is fetched or read', async (_kind, name, build) => {
    const res = await anonymous(svc, build(), name);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(listener.requests).toEqual([]);
    const text = await pdftotext(res.body as Buffer);
    expect(text).toMatch(/Contrato de arrendamiento|Acta de la reunión/);
    expect(text).not.toContain(MARKER);
    expect(await leftovers(svc)).toEqual([]);
  });

  if (sandbox === 'off') {
    it('answers 422 document_unsafe for a binary format (.rtf) it cannot strip, and fetches nothing', async () => {
      const res = await anonymous(svc, linkedRtf(targets), 'informe.rtf');
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'document_unsafe' });
      expect(res.body.detail[0].msg).toContain('.docx');
      expect(listener.requests).toEqual([]);
    });
  } else {
    it('still converts a binary format (.rtf, with an INCLUDEPICTURE field) in the sandbox, fetching nothing', async () => {
      const res = await anonymous(svc, linkedRtf(targets), 'informe.rtf');
      expect(res.status).toBe(200);
      expect(await pdftotext(res.body as Buffer)).toContain('Informe RTF');
      expect(listener.requests).toEqual([]);
    });
  }
});
