import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { eventually, linkOf, mailText, ocspText, otpOf, readDssWithQpdf, samplePdf, startTestEsign, subjectOf, type TestEsign } from '../__tests__/support';

const run = promisify(execFile);
const pem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

async function pdfsig(pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pdfsig-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    return (await run('pdfsig', [join(dir, 'doc.pdf')]).catch((err: { stdout: string }) => err)).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('seals verifiable for years: a default install with a TSA seals at PAdES B-LTA', () => {
  let env: TestEsign;
  let key: string;
  const dir = mkdtempSync(join(tmpdir(), 'esign-lt-'));

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_long_term', tsa: 'pki' });
    key = await env.keyFor('acme');
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = () => request(env.rt.server!);

  async function signOnce(title: string, email: string) {
    const pdf = await samplePdf({ title });
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', pdf, { filename: 'doc.pdf', contentType: 'application/pdf' });
    expect(up.status).toBe(200);
    const id = up.body.document_id as string;
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: id, signee_email: email });
    expect(created.status).toBe(200);
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    const before = env.smtp.messages.length;
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    const signed = await api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true });
    expect(signed.status).toBe(200);
    return { id, requestId: created.body.request_id as string, signed: signed.body };
  }

  function checkLongTerm(pdf: Buffer, report: string) {
    // The seal validates; the document timestamp is listed over the whole file (poppler 22.12
    // cannot check RFC 3161 tokens itself: pdf-core's tests check them with openssl ts).
    expect(report.split('Signature Validation: Signature is Valid.').length - 1).toBe(1);
    expect(report).toMatch(/Signature #2:[\s\S]*Test PKI TSA[\s\S]*Total document signed/);
    const dss = readDssWithQpdf(pdf);
    expect(dss.signatures.map((s) => s.type)).toEqual(expect.arrayContaining(['/Sig', '/DocTimeStamp']));
    const subjects = dss.certs.map(subjectOf);
    expect(subjects).toEqual(
      expect.arrayContaining([
        'subject=CN = esign service seal (self-signed), O = firma.example.test',
        'subject=CN = esign service seal (self-signed) root, O = firma.example.test',
        'subject=CN = Test PKI TSA, O = Firma tests',
        'subject=CN = Test PKI Intermediate, O = Firma tests',
        'subject=CN = Test PKI Root, O = Firma tests',
      ]),
    );
    // One OCSP response each for the seal certificate (the service's own responder), the TSA and the intermediate.
    const texts = dss.ocsps.map(ocspText);
    expect(texts).toHaveLength(3);
    for (const text of texts) expect(text).toContain('Cert Status: good');
  }

  it('seals the signee copy and the final PDF at B-LTA, and the status records say so', async () => {
    const { id, requestId, signed } = await signOnce('Contrato largo plazo', 'ana@example.test');
    expect(signed.signature).toMatchObject({ status: 'sealed', level: 'B-LTA', tsa_time: expect.any(String) });
    const status = await api().get(`/firma/solicitudes/${requestId}/estado`).set('authorization', key);
    expect(status.body.signature).toMatchObject({ status: 'sealed', level: 'B-LTA' });

    const copy = await api().get(`/firma/documentos/${id}/signed-pdf`).set('authorization', key).buffer(true).parse(binary);
    expect(copy.status).toBe(200);
    checkLongTerm(copy.body as Buffer, await pdfsig(copy.body as Buffer));

    const doc = await eventually(async () => {
      const res = await api().get(`/firma/documentos/${id}`).set('authorization', key);
      return res.body.final_sha256 ? res.body : undefined;
    });
    expect(doc.final_signature).toMatchObject({ level: 'B-LTA' });
    const final = await api().get(`/firma/documentos/${id}/final-pdf`).set('authorization', key).buffer(true).parse(binary);
    expect(createHash('sha256').update(final.body as Buffer).digest('hex')).toBe(doc.final_sha256);
    checkLongTerm(final.body as Buffer, await pdfsig(final.body as Buffer));
  });

  it('serves the local root, its CRL and an OCSP responder under /pki that openssl accepts', async () => {
    const root = await api().get('/pki/root.crt').buffer(true).parse(binary);
    expect(root.status).toBe(200);
    expect(root.headers['content-type']).toBe('application/pkix-cert');
    const identity = env.rt.signing.identity;
    writeFileSync(join(dir, 'root.pem'), pem(root.body as Buffer));
    writeFileSync(join(dir, 'seal.pem'), pem(identity.certificateDer));
    const text = (await run('openssl', ['x509', '-in', join(dir, 'seal.pem'), '-noout', '-text'])).stdout;
    expect(text).toContain('OCSP - URI:https://firma.example.test/pki/ocsp');
    expect(text).toContain('URI:https://firma.example.test/pki/root.crl');

    const crl = await api().get('/pki/root.crl').buffer(true).parse(binary);
    writeFileSync(join(dir, 'root.crl'), crl.body as Buffer);
    const crlCheck = await run('openssl', ['crl', '-inform', 'DER', '-in', join(dir, 'root.crl'), '-CAfile', join(dir, 'root.pem'), '-noout']);
    expect(crlCheck.stderr + crlCheck.stdout).toContain('verify OK');

    await run('openssl', ['ocsp', '-issuer', join(dir, 'root.pem'), '-cert', join(dir, 'seal.pem'), '-reqout', join(dir, 'req.der')]);
    const requestDer = readFileSync(join(dir, 'req.der'));
    const posted = await api().post('/pki/ocsp').set('content-type', 'application/ocsp-request').send(requestDer).buffer(true).parse(binary);
    expect(posted.status).toBe(200);
    expect(posted.headers['content-type']).toBe('application/ocsp-response');
    writeFileSync(join(dir, 'resp.der'), posted.body as Buffer);
    // Checked against the request: signature by the root, and the request's nonce echoed.
    const checked = await run('openssl', ['ocsp', '-respin', join(dir, 'resp.der'), '-reqin', join(dir, 'req.der'), '-CAfile', join(dir, 'root.pem'), '-resp_text']);
    expect(checked.stderr + checked.stdout).toContain('Response verify OK');
    expect(checked.stdout).toContain('Cert Status: good');
    expect(checked.stdout).toContain('OCSP Nonce');

    const viaGet = await api().get(`/pki/ocsp/${encodeURIComponent(requestDer.toString('base64'))}`).buffer(true).parse(binary);
    expect(viaGet.status).toBe(200);
    expect(ocspText(viaGet.body as Buffer)).toContain('Cert Status: good');
    const garbage = await api().post('/pki/ocsp').send(Buffer.from('not an OCSP request')).buffer(true).parse(binary);
    expect(garbage.status).toBe(200);
    // OCSPResponse { responseStatus malformedRequest (1) }
    expect((garbage.body as Buffer).equals(Buffer.from([0x30, 0x03, 0x0a, 0x01, 0x01]))).toBe(true);
  });

  it('after the TSA certificate is revoked, sealed copies are unchanged and new seals stay `sealing` with the error (never a lower level)', async () => {
    const earlier = await signOnce('Antes de revocar', 'luis@example.test');
    const before = await api().get(`/firma/documentos/${earlier.id}/signed-pdf`).set('authorization', key).buffer(true).parse(binary);
    await env.pki!.revokeByIntermediate(env.pki!.tsa.cert);

    const after = await signOnce('Después de revocar', 'marta@example.test');
    expect(after.signed.signature).toMatchObject({ status: 'sealing', level: null });
    expect(after.signed.signature.error).toMatch(/revoked/);
    const copy = await api().get(`/firma/documentos/${after.id}/signed-pdf`).set('authorization', key);
    expect(copy.status).toBe(409);

    const again = await api().get(`/firma/documentos/${earlier.id}/signed-pdf`).set('authorization', key).buffer(true).parse(binary);
    expect((again.body as Buffer).equals(before.body as Buffer)).toBe(true);
    checkLongTerm(again.body as Buffer, await pdfsig(again.body as Buffer));
  });
});
