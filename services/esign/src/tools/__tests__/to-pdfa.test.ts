import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pdffontsAllEmbedded, pdftotext, qpdfCheck, qpdfJson, startToolsService, textPdf, withFile, type ToolsService } from './support';

const run = promisify(execFile);

describe('POST /firma/tools/to-pdfa', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('pdfa');
  });
  afterAll(async () => svc?.close());

  it('answers PDF/A-2b: sRGB OutputIntent, XMP pdfaid part 2 conformance B, fonts embedded, text kept', async () => {
    const res = await svc.post('to-pdfa').attach('file', await textPdf(2, { title: 'Archive' }), 'doc.pdf');
    expect(res.status).toBe(200);
    expect(res.headers['x-pdfa']).toBe('2B');
    const xmp = await withFile(res.body, async (p) => (await run('pdfinfo', ['-meta', p])).stdout);
    expect(xmp).toMatch(/pdfaid:part(='2'|="2"|>2<)/);
    expect(xmp).toMatch(/pdfaid:conformance(='B'|="B"|>B<)/);
    const json = await qpdfJson(res.body, ['qpdf']);
    const objects = json.qpdf[1] as Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }>;
    const root = objects[`obj:${objects.trailer!.value!['/Root']}`]!.value!;
    const intents = root['/OutputIntents'] as string[];
    expect(intents).toHaveLength(1);
    const intent = objects[`obj:${intents[0]}`]!.value!;
    expect(intent).toMatchObject({ '/S': '/GTS_PDFA1', '/OutputConditionIdentifier': 'u:sRGB IEC61966-2.1' });
    expect(objects[`obj:${intent['/DestOutputProfile']}`]!.stream!.dict['/N']).toBe(3);
    expect(await pdffontsAllEmbedded(res.body)).toBe(true);
    expect(await pdftotext(res.body)).toContain('Page 2 of');
    expect(await qpdfCheck(res.body)).toContain('No syntax or stream encoding errors');
  });

  it('refuses a password-locked PDF with 422', async () => {
    const { encryptPdf } = await import('./support');
    const res = await svc.post('to-pdfa').attach('file', await encryptPdf(await textPdf(1), 'u', 'o'), 'doc.pdf');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'pdf_encrypted' });
  });
});
