import { createHash } from 'node:crypto';
import request from 'supertest';
import { eventually, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';

/**
 * A final PDF larger than ESIGN_MAIL_ATTACH_MAX_MB (0 here: every PDF) is not attached: each
 * recipient gets a personal link, valid 30 days, that serves the final PDF until the
 * document is erased.
 */
describe('the completion copy as a link', () => {
  let env: TestEsign;
  let key: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_completion_link', env: { ESIGN_MAIL_ATTACH_MAX_MB: '0' } });
    key = await env.keyFor('acme');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  };

  it('emails a link instead of the attachment, serves the final PDF through it, and stops it at erasure', async () => {
    const pdf = await samplePdf({ title: 'Grande' });
    const id = (await api().post('/firma/documentos').set('authorization', key).attach('file', pdf, { filename: 'doc.pdf', contentType: 'application/pdf' })).body.document_id as string;
    const signer = (await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: id, signee_email: 'firma@example.test' })).body;
    await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: id, signee_email: 'gestoria@example.test', role: 'cc' }).expect(200);
    const token = signer.signing_url.split('/').at(-1);
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes('firma@example.test') && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true }).expect(200);

    const doc = await eventually(async () => {
      const res = await api().get(`/firma/documentos/${id}`).set('authorization', key);
      return res.body.final_sha256 ? res.body : undefined;
    });
    const mail = await env.smtp.waitFor((m) => m.to.includes('gestoria@example.test') && /Documento firmado/.test(mailText(m)));
    expect(mail.raw).not.toMatch(/Content-Type: application\/pdf/i);
    const link = /https:\/\/firma\.example\.test(\/firma\/copia\/[A-Za-z0-9_-]{43})/.exec(mailText(mail));
    expect(link).not.toBeNull();
    expect(mailText(mail)).toMatch(/válido hasta el/);

    const copy = await api().get(link![1]!).buffer(true).parse(binary);
    expect(copy.status).toBe(200);
    expect(copy.headers['content-type']).toBe('application/pdf');
    expect(createHash('sha256').update(copy.body as Buffer).digest('hex')).toBe(doc.final_sha256);
    const unknown = await api().get(`/firma/copia/${'A'.repeat(43)}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'LINK_NOT_FOUND']);

    await api().delete(`/firma/documentos/${id}`).set('authorization', key).expect(200);
    const gone = await api().get(link![1]!);
    expect([gone.status, gone.body.code]).toEqual([404, 'LINK_NOT_FOUND']);
  });
});
