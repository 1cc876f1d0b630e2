import { encryptPdf, pdftotext, qpdfJson, startToolsService, textPdf, type ToolsService } from './support';

describe('POST /firma/tools/unprotect', () => {
  let svc: ToolsService;
  beforeAll(async () => {
    svc = await startToolsService('unprotect');
  });
  afterAll(async () => svc?.close());

  it('removes the encryption with the user password', async () => {
    const locked = await encryptPdf(await textPdf(2), 'clave', 'dueño');
    const res = await svc.post('unprotect').field('password', 'clave').attach('file', locked, 'a.pdf');
    expect(res.status).toBe(200);
    expect(res.headers['x-pdf-was-encrypted']).toBe('true');
    expect((await qpdfJson(res.body, ['encrypt'])).encrypt.encrypted).toBe(false);
    expect(await pdftotext(res.body)).toContain('Page 2 of');
  });

  it('removes the encryption with the owner password', async () => {
    const locked = await encryptPdf(await textPdf(1), 'clave', 'dueño');
    const res = await svc.post('unprotect').field('password', 'dueño').attach('file', locked, 'a.pdf');
    expect(res.status).toBe(200);
    expect((await qpdfJson(res.body, ['encrypt'])).encrypt.encrypted).toBe(false);
  });

  it('answers a wrong password with 422 at the password field', async () => {
    const locked = await encryptPdf(await textPdf(1), 'clave', 'dueño');
    const res = await svc.post('unprotect').field('password', 'otra').attach('file', locked, 'a.pdf');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'password'], type: 'password_invalid' });
  });

  it.each(['-secret', '@secret', '--decrypt'])('round-trips a password starting like an option or argument file: %s', async (password) => {
    const locked = await svc.post('protect').field('password', password).attach('file', await textPdf(2), 'a.pdf');
    expect(locked.status).toBe(200);
    const wrong = await svc.post('unprotect').field('password', `${password}x`).attach('file', locked.body, 'a.pdf');
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0]).toMatchObject({ loc: ['form', 'password'], type: 'password_invalid' });
    const res = await svc.post('unprotect').field('password', password).attach('file', locked.body, 'a.pdf');
    expect(res.status).toBe(200);
    expect(res.headers['x-pdf-was-encrypted']).toBe('true');
    expect(await pdftotext(res.body)).toContain('Page 2 of');
  });

  it('returns an unencrypted file unchanged and says so', async () => {
    const plain = await textPdf(1);
    const res = await svc.post('unprotect').field('password', 'x').attach('file', plain, 'a.pdf');
    expect(res.status).toBe(200);
    expect(res.headers['x-pdf-was-encrypted']).toBe('false');
    expect(Buffer.compare(res.body, plain)).toBe(0);
  });
});
