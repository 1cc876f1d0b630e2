import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { samplePdf, shortTempDir, startTestEsign, type TestEsign } from '../__tests__/support';

describe('documents', () => {
  let env: TestEsign;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_documents', env: { ESIGN_MAX_UPLOAD_MB: '1' } });
    key = await env.keyFor('acme');
    otherKey = await env.keyFor('globex');
  });

  afterAll(async () => {
    await env?.close();
  });

  const upload = (bytes: Buffer, options: { title?: string; key?: string; filename?: string } = {}) => {
    const req = request(env.rt.server!).post('/firma/documentos').set('authorization', options.key ?? key);
    if (options.title) req.field('title', options.title);
    return req.attach('file', bytes, { filename: options.filename ?? 'contrato.pdf', contentType: 'application/pdf' });
  };

  it('stores an uploaded PDF byte for byte and answers its record with hash and page count', async () => {
    const pdf = await samplePdf({ pages: 3 });
    const res = await upload(pdf, { title: 'Contrato de arrendamiento' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tenant: 'acme',
      filename: 'contrato.pdf',
      title: 'Contrato de arrendamiento',
      pages: 3,
      size_bytes: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      status: 'draft',
      final_sha256: null,
    });
    expect(res.body.document_id).toMatch(/^[0-9a-f-]{36}$/);
    const stored = readFileSync(join(env.dataDir, 'esign', 'files', 'documents', res.body.document_id, 'original.pdf'));
    expect(stored.equals(pdf)).toBe(true);
  });

  it('refuses a file that is not a PDF with 422 saying so', async () => {
    const res = await upload(Buffer.from('just some text, not a PDF'));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'pdf_not_pdf' });
    expect(res.body.detail[0].msg).toMatch(/not a PDF/);
  });

  it('refuses a truncated PDF as damaged', async () => {
    const pdf = await samplePdf();
    const res = await upload(pdf.subarray(0, Math.floor(pdf.length * 0.6)));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'pdf_corrupt' });
  });

  it('refuses an encrypted PDF, telling the user to upload an unprotected copy', async () => {
    const dir = shortTempDir();
    writeFileSync(join(dir, 'in.pdf'), await samplePdf());
    execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', join(dir, 'in.pdf'), join(dir, 'out.pdf')]);
    const res = await upload(readFileSync(join(dir, 'out.pdf')));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'pdf_encrypted' });
  });

  it('answers 413 for a file over ESIGN_MAX_UPLOAD_MB and stores nothing', async () => {
    const res = await upload(await samplePdf({ padTo: 1_300_000 }));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 422 located at form.file when no file is sent', async () => {
    const res = await request(env.rt.server!).post('/firma/documentos').set('authorization', key).field('title', 'Sin archivo');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'missing' });
  });

  it("hides another tenant's document behind 404", async () => {
    const created = await upload(await samplePdf(), { key: otherKey });
    const res = await request(env.rt.server!).get(`/firma/documentos/${created.body.document_id}`).set('authorization', key);
    expect(res.status).toBe(404);
    const own = await request(env.rt.server!).get(`/firma/documentos/${created.body.document_id}`).set('authorization', otherKey);
    expect(own.status).toBe(200);
  });

  it('lists the tenant\'s documents as an HTML table, 20 a page, filtered by status, with titles escaped', async () => {
    const tenantKey = await env.keyFor('pager');
    for (let i = 0; i < 21; i++) await upload(await samplePdf({ pages: 1 }), { key: tenantKey, title: i === 0 ? '<script>alert(1)</script>' : `Doc ${i}` });
    const first = await request(env.rt.server!).get('/firma/mis-documentos').set('authorization', tenantKey);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toMatch(/text\/html/);
    expect(first.text).toContain('<html lang="es">');
    expect(first.text.match(/<tr>\s*<td><code>/g)).toHaveLength(20);
    expect(first.text).toContain('Página 1 de 2');
    const second = await request(env.rt.server!).get('/firma/mis-documentos?page=2').set('authorization', tenantKey);
    expect(second.text.match(/<tr>\s*<td><code>/g)).toHaveLength(1);
    expect(second.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(second.text).not.toContain('<script>alert(1)</script>');
    const signed = await request(env.rt.server!).get('/firma/mis-documentos?status=signed').set('authorization', tenantKey);
    expect(signed.text).toContain('No hay documentos.');
    const drafts = await request(env.rt.server!).get('/firma/mis-documentos?status=draft').set('authorization', tenantKey);
    expect(drafts.text).toContain('21 documentos');
  });

  it('refuses page 0 and unknown statuses with 422', async () => {
    expect((await request(env.rt.server!).get('/firma/mis-documentos?page=0').set('authorization', key)).status).toBe(422);
    expect((await request(env.rt.server!).get('/firma/mis-documentos?status=lost').set('authorization', key)).status).toBe(422);
  });
});
