import { encryptPdf, formPdf, leftovers, pdfinfo, startToolsService, textPdf, type ToolsService } from './support';

describe('POST /firma/tools/info', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('info');
  });
  afterAll(async () => svc?.close());

  it('reports page count, version, metadata and page size as pdfinfo reads them', async () => {
    const pdf = await textPdf(3, { title: 'Contrato de arrendamiento', author: 'Ana Núñez' });
    const res = await svc.post('info').attach('file', pdf, 'contrato.pdf');
    expect(res.status).toBe(200);
    const independent = await pdfinfo(pdf);
    expect(res.body).toMatchObject({
      pages: Number(independent.Pages),
      pdf_version: independent['PDF version'],
      encrypted: false,
      password_required: false,
      encryption: null,
      page_size: { width: 595, height: 842 },
      form: { has_form: false, fields: [] },
    });
    expect(res.body.metadata).toMatchObject({ title: 'Contrato de arrendamiento', author: 'Ana Núñez' });
  });

  it('lists form fields with their types and values', async () => {
    const res = await svc.post('info').attach('file', await formPdf(), 'form.pdf');
    expect(res.status).toBe(200);
    expect(res.body.form.has_form).toBe(true);
    expect(res.body.form.fields).toEqual(
      expect.arrayContaining([
        { name: 'applicant.name', type: 'text', value: 'Lucia Fernandez', page: 1 },
        { name: 'agree', type: 'checkbox', value: 'Yes', page: 1 },
      ]),
    );
  });

  it('reports a password-locked file as encrypted with AES-256 instead of failing', async () => {
    const locked = await encryptPdf(await textPdf(2, { title: 'Secreto' }), 'user-pw', 'owner-pw');
    const res = await svc.post('info').attach('file', locked, 'locked.pdf');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ encrypted: true, password_required: true, encryption: { method: 'AES-256', bits: 256 }, metadata: null });
  });

  it('reads a locked file fully when given its password', async () => {
    const locked = await encryptPdf(await textPdf(2, { title: 'Secreto' }), 'user-pw', 'owner-pw');
    const res = await svc.post('info').field('password', 'user-pw').attach('file', locked, 'locked.pdf');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pages: 2, encrypted: true, password_required: false, encryption: { method: 'AES-256' }, metadata: { title: 'Secreto' } });
    expect(res.body.encryption.permissions).toMatchObject({ extract: true, printhigh: true });
  });

  it('reports a file with only an owner password as encrypted but openable', async () => {
    const restricted = await encryptPdf(await textPdf(4), '', 'owner-pw', '128');
    const res = await svc.post('info').attach('file', restricted, 'restricted.pdf');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pages: 4, encrypted: true, password_required: false, encryption: { method: 'AES-128' } });
  });

  it('answers a wrong password with 422 located at the password field', async () => {
    const locked = await encryptPdf(await textPdf(1), 'user-pw', 'owner-pw');
    const res = await svc.post('info').field('password', 'nope').attach('file', locked, 'locked.pdf');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'password'], type: 'password_invalid' });
  });

  it('answers a non-PDF, a truncated PDF and a missing file with 422 naming the problem', async () => {
    const notPdf = await svc.post('info').attach('file', Buffer.from('PK\x03\x04 this is a zip'), 'x.pdf');
    expect(notPdf.status).toBe(422);
    expect(notPdf.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'pdf_invalid' });

    const truncated = (await textPdf(2)).subarray(0, 300);
    const damaged = await svc.post('info').attach('file', truncated, 'cut.pdf');
    expect(damaged.status).toBe(422);
    expect(damaged.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'pdf_damaged' });
    expect(damaged.body.detail[0].msg).not.toContain(svc.tmpDir);

    const missing = await svc.post('info').field('password', 'x');
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'missing' });
    expect(await leftovers(svc)).toEqual([]);
  });

  it('needs no key (interface §4.3), but refuses a key that is not valid with 401', async () => {
    const { default: request } = await import('supertest');
    const anonymous = await request(svc.rt.server!).post('/firma/tools/info').attach('file', await textPdf(1), 'a.pdf');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.pages).toBe(1);
    const wrong = await request(svc.rt.server!).post('/firma/tools/info').set('authorization', 'Bearer esk_nope').attach('file', await textPdf(1), 'a.pdf');
    expect(wrong.status).toBe(401);
  });
});
