import request from 'supertest';
import { createTsaClient, generateSelfSignedPkcs12, loadPkcs12, sealPdf } from '@firma-riesgo/pdf-core';
import { eventually, linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';

describe('public verification: the search form and any uploaded PDF (/verificar)', () => {
  let env: TestEsign;
  let ownBt: Buffer;
  let foreign: Buffer;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_verify_file', tsa: true, env: { ESIGN_TOOLS_RATE_LIMIT: '20', TRUSTED_PROXIES: '127.0.0.1/32,::1/128,::ffff:127.0.0.1/128' } });
    const signingTime = new Date('2026-03-01T10:00:00Z');
    ownBt = (await sealPdf(await samplePdf(), { identity: env.rt.signing.identity, tsa: createTsaClient({ url: env.tsa!.url }), signingTime, reason: 'x', fieldName: 'sello-1' })).pdf;
    const other = await loadPkcs12(generateSelfSignedPkcs12({ commonName: 'Otra <b>Casa</b>' }), undefined);
    foreign = (await sealPdf(await samplePdf(), { identity: other, signingTime, reason: 'x', fieldName: 'firma-ajena' })).pdf;
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const verify = (file: Buffer, accept = 'application/json', ip = '198.51.100.1') =>
    api().post('/verificar').set('accept', accept).set('x-forwarded-for', ip).attach('file', file, { filename: 'firmado.pdf', contentType: 'application/pdf' });

  it('answers an accessible search form with both fields under a strict nonce CSP', async () => {
    const res = await api().get('/verificar').set('accept-language', 'en');
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/html');
    const nonce = /'nonce-([^']+)'/.exec(res.headers['content-security-policy']!)![1]!;
    expect(res.headers['content-security-policy']).toBe(`default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`);
    expect(res.text).toContain('<label for="document_id">Document identifier</label>');
    expect(res.text).toContain('<input type="search" id="document_id" name="document_id"');
    expect(res.text).toContain('<label for="file">PDF file</label>');
    expect(res.text).toContain('enctype="multipart/form-data"');
    // The optional validation time: a plain datetime-local field, posted with the file (no script needed).
    expect(res.text).toContain('<label for="at">Validation date and time (optional, UTC)</label>');
    expect(res.text).toContain('<input type="datetime-local" id="at" name="at" step="1" aria-describedby="at-hint">');
    expect(res.text).not.toMatch(/<script/);
  });

  it('redirects a well-formed id with 303 and shows the form again, with a message, for a malformed one', async () => {
    const id = '0F8FAD5B-D9CB-469F-A165-70867728950E';
    const ok = await api().get(`/verificar?document_id=${id}&lang=en`);
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe(`/verificar/${id.toLowerCase()}?lang=en`);
    for (const bad of ['<script>x</script>', 'not-an-id', '', '../admin']) {
      const res = await api().get('/verificar').query({ document_id: bad, lang: 'es' });
      expect({ bad, status: res.status, type: res.type }).toEqual({ bad, status: 422, type: 'text/html' });
      expect(res.text).toContain('role="alert"');
      expect(res.text).toContain('El identificador no es válido');
      expect(res.text).not.toContain('<script>x');
    }
  });

  it('verifies our own B-T seal as JSON: valid, issued by this service, with the TSA time', async () => {
    const res = await verify(ownBt);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, modified_after_last_signature: false, problems: [] });
    expect(res.body.file_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.signatures).toHaveLength(1);
    expect(res.body.signatures[0]).toMatchObject({
      field: 'sello-1',
      level: 'B-T',
      signing_time: '2026-03-01T10:00:00.000Z',
      integrity: true,
      signature_valid: true,
      covers_document: true,
      ess_certificate_matches: true,
      timestamp_valid: true,
      // The generated identity's seal certificate is issued by its local root: not self-signed, but ours.
      certificate: { self_signed: false, issued_by_this_service: true },
      problems: [],
    });
    expect(res.body.signatures[0].timestamp_time).toMatch(/^\d{4}-/);
  });

  it('verifies a file signed with another certificate: valid, not issued by this service', async () => {
    const res = await verify(foreign);
    expect(res.body).toMatchObject({ valid: true, signatures: [{ certificate: { issued_by_this_service: false, subject: 'CN=Otra \\<b\\>Casa\\</b\\>' }, signer: 'Otra <b>Casa</b>' }] });
  });

  it('reports a changed byte and an appended update as not valid', async () => {
    const tampered = Buffer.from(foreign);
    const at = tampered.indexOf('/MediaBox') + 2;
    tampered[at] = tampered[at]! ^ 1;
    const changed = await verify(tampered);
    expect(changed.body).toMatchObject({ valid: false, signatures: [{ integrity: false }] });
    const appended = await verify(Buffer.concat([foreign, Buffer.from('\n1 0 obj\n<< >>\nendobj\n%%EOF\n')]));
    expect(appended.body).toMatchObject({ valid: false, modified_after_last_signature: true });
  });

  it('answers an HTML report with the verdict first, everything escaped, under a strict CSP', async () => {
    const res = await verify(foreign, 'text/html,application/xhtml+xml');
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/html');
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'nonce-[^']+'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    const main = res.text.slice(res.text.indexOf('<main>'));
    expect(main.indexOf('Firma válida')).toBeLessThan(main.indexOf('Firma 1'));
    expect(res.text).toContain('<dd>Otra &lt;b&gt;Casa&lt;/b&gt;</dd>');
    expect(res.text).not.toContain('<b>Casa');
    expect(res.text).not.toMatch(/<script/);
  });

  it('refuses a non-PDF and a missing file with 422, and says an unsigned PDF is not valid', async () => {
    expect((await verify(Buffer.from('hello, not a pdf'))).status).toBe(422);
    expect((await api().post('/verificar').set('accept', 'application/json').field('x', 'y')).status).toBe(422);
    const unsigned = await verify(await samplePdf());
    expect(unsigned.body).toMatchObject({ valid: false, signatures: [], problems: ['the file has no signatures'] });
  });

  it('limits verifications per client IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await verify(Buffer.from('x'), 'application/json', '198.51.100.99')).status);
    expect(statuses.slice(0, 20).every((s) => s === 422)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect((await verify(Buffer.from('x'), 'application/json', '198.51.100.100')).status).toBe(422);
  });

  it("recognises a file from our own flow: the signee's sealed copy and the final PDF name their document", async () => {
    const key = await env.keyFor('known');
    const email = 'known.signee@example.test';
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'k.pdf', contentType: 'application/pdf' });
    await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email }).expect(200);
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true }).expect(200);
    const download = (path: string) =>
      api().get(path).set('authorization', key).buffer(true).parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    const copy = (await download(`/firma/documentos/${up.body.document_id}/signed-pdf`)).body as Buffer;
    // the worker builds the final PDF once the copy is sealed
    const final = await eventually(async () => {
      const res = await download(`/firma/documentos/${up.body.document_id}/final-pdf`);
      return res.status === 200 ? (res.body as Buffer) : undefined;
    });
    const ofCopy = await verify(copy, 'application/json', '198.51.100.77');
    expect(ofCopy.body).toMatchObject({ valid: true, known_document: { document_id: up.body.document_id, status: 'signed', final_sha256_matches: false } });
    const ofFinal = await verify(final, 'application/json', '198.51.100.77');
    expect(ofFinal.body).toMatchObject({ valid: true, known_document: { document_id: up.body.document_id, final_sha256_matches: true } });
  });
});
