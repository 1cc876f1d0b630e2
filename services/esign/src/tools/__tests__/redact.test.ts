import request from 'supertest';
import { PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { pdftotext, qpdfCheck, qpdfJson, qpdfUncompressed, startToolsService, textPdf, type ToolsService } from './support';

const DNI = '12345678Z';

/** Text with DNIs, a phrase wrapping across two lines, a DNI in the metadata, a bookmark and a form value. */
async function sensitivePdf(pages = 2): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    const lines = [`Page ${i}: the tenant, DNI ${DNI}, signs the`, 'contract. Keep this sentence. This is our secret', 'agreement and nothing else.', `Second id 87654321X on page ${i}.`];
    lines.forEach((text, j) => page.drawText(text, { x: 60, y: 760 - j * 16, size: 12, font }));
  }
  doc.setTitle(`Contract of ${DNI}`);
  doc.setSubject('secret agreement');
  const form = doc.getForm();
  const field = form.createTextField('id');
  field.setText(DNI);
  field.addToPage(doc.getPage(0), { x: 60, y: 500, width: 200, height: 20 });
  // one bookmark whose title holds the DNI
  const outlineItem = doc.context.obj({ Title: PDFHexString.fromText(`Holder ${DNI}`), Dest: [doc.getPage(0).ref, PDFName.of('Fit')] });
  const itemRef = doc.context.register(outlineItem);
  const outlines = doc.context.obj({ Type: 'Outlines', First: itemRef, Last: itemRef, Count: 1 });
  const outlinesRef = doc.context.register(outlines);
  outlineItem.set(PDFName.of('Parent'), outlinesRef);
  doc.catalog.set(PDFName.of('Outlines'), outlinesRef);
  doc.catalog.set(PDFName.of('PageMode'), PDFString.of('UseOutlines'));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

describe('POST /firma/tools/redact', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('redact');
  });
  afterAll(async () => svc?.close());

  it('removes every match from the content, including one that wraps across lines, and leaves the rest', async () => {
    const pdf = await sensitivePdf();
    // positive control: the readers do see the text before
    expect(await pdftotext(pdf)).toContain(DNI);
    expect(await qpdfUncompressed(pdf)).toContain(DNI);

    const res = await svc.post('redact').field('patterns', '\\d{8}[A-Z]').field('patterns', 'secret\\s+agreement').attach('file', pdf, 'c.pdf');
    expect(res.status).toBe(200);
    expect(res.headers['x-redaction-count']).toBe('6');
    const text = await pdftotext(res.body);
    expect(text).not.toMatch(/\d{8}[A-Z]/);
    expect(text).not.toMatch(/secret\s+agreement/);
    expect(text).toContain('Keep this sentence.');
    expect(text).toContain('and nothing else.');
    const raw = await qpdfUncompressed(res.body);
    expect(raw).not.toContain(DNI);
    expect(raw).not.toContain('87654321X');
    expect(raw).not.toMatch(/secret\s+agreement/);
    expect(await qpdfCheck(res.body)).toContain('No syntax or stream encoding errors');
  });

  it('splits one `patterns` field on commas (keeping quantifier commas) or on newlines, as the interface states', async () => {
    const pdf = await sensitivePdf();
    for (const field of ['\\d{8}[A-Z],secret\\s+agreement', 'secret\\s+agreement\n\\d{8}[A-Z]', '\\d{8,8}[A-Z], secret\\s+agreement,']) {
      const res = await svc.post('redact').field('patterns', field).attach('file', pdf, 'c.pdf');
      expect(res.status).toBe(200);
      expect(res.headers['x-redaction-count']).toBe('6');
      const text = await pdftotext(res.body);
      expect(text).not.toMatch(/\d{8}[A-Z]/);
      expect(text).not.toMatch(/secret\s+agreement/);
    }
  });

  it('scrubs metadata, XMP, bookmarks and form values of matches', async () => {
    const res = await svc.post('redact').field('patterns', JSON.stringify(['\\d{8}Z'])).attach('file', await sensitivePdf(1), 'c.pdf');
    expect(res.status).toBe(200);
    const json = await qpdfJson(res.body, ['outlines', 'acroform']);
    expect(json.outlines[0].title).toBe('Holder [REDACTED]');
    expect(json.acroform.fields[0].value).toBe('u:[REDACTED]');
    const raw = await qpdfUncompressed(res.body);
    expect(raw).not.toContain(DNI);
    expect(raw).not.toContain(Buffer.from(`\ufeff${DNI}`, 'utf16le').swap16().toString('latin1'));
  });

  it('matches case-insensitively when asked', async () => {
    const pdf = await textPdf(1, { line: () => 'Confidential: ACME Holdings and acme holdings' });
    const res = await svc.post('redact').field('patterns', 'acme holdings').field('case_insensitive', 'true').attach('file', pdf, 'a.pdf');
    expect(res.headers['x-redaction-count']).toBe('2');
    expect((await pdftotext(res.body)).toLowerCase()).not.toContain('acme');
  });

  it('stops a catastrophic pattern with 422 while /health keeps answering, and the next redaction works', async () => {
    const pdf = await textPdf(1, { line: () => [`${'a'.repeat(60)}b`] });
    const pending = svc.post('redact').field('patterns', '(a+)+$').attach('file', pdf, 'evil.pdf');
    const health = await request(svc.rt.server!).get('/health');
    expect(health.status).toBe(200);
    const res = await pending;
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'patterns'], type: 'pattern_too_slow' });
    const next = await svc.post('redact').field('patterns', 'a{3}b').attach('file', pdf, 'ok.pdf');
    expect(next.status).toBe(200);
    expect(next.headers['x-redaction-count']).toBe('1');
  });

  it('refuses an invalid regular expression and a missing pattern with 422', async () => {
    const pdf = await textPdf(1);
    const invalid = await svc.post('redact').field('patterns', '([a-').attach('file', pdf, 'a.pdf');
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0]).toMatchObject({ loc: ['form', 'patterns', 0], type: 'pattern_invalid' });
    const missing = await svc.post('redact').attach('file', pdf, 'a.pdf');
    expect(missing.body.detail[0].loc).toEqual(['form', 'patterns']);
  });
});
