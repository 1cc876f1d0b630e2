import { rmSync } from 'node:fs';
import request from 'supertest';
import { clearRedisPrefix } from '@firma-riesgo/service-kit/testing';
import { startEsign } from '../runtime';
import { eventually, linkOf, mailText, otpOf, samplePdf, startTestEsign, testConfig, type TestEsign } from '../__tests__/support';

/**
 * An operator's seal certificate (a PKCS#12 from a CA: the openssl test PKI) revoked after
 * signing: copies sealed before keep verifying, the next seal stays `sealing` with the error
 * (never a lower level), and once the identity is rotated (a new certificate from the CA,
 * the process restarted on it) the pending seal's retry seals it under the new certificate.
 */
describe('the seal certificate revoked, then the identity rotated', () => {
  let env: TestEsign;
  let rt: TestEsign['rt'];
  let key: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_seal_revoked', tsa: 'pki', env: (pki) => ({ SIGNING_P12_PATH: pki!.seal.p12, SIGNING_P12_PASSWORD: 'test', ESIGN_TRUST_ANCHORS: pki!.root }) });
    rt = env.rt;
    key = await env.keyFor('acme');
  }, 60_000);

  afterAll(async () => {
    // The rotated runtime replaced the one startTestEsign made: close it, then the rest.
    if (rt !== env.rt) {
      await rt.close();
      await env.smtp.close();
      await env.tsa?.close();
      await env.pki?.close();
      await env.db.drop();
      await clearRedisPrefix(env.prefix);
      rmSync(env.dataDir, { recursive: true, force: true });
    } else await env?.close();
  });

  const api = () => request(rt.server!);

  async function signOnce(title: string, email: string) {
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf({ title }), { filename: 'doc.pdf', contentType: 'application/pdf' });
    expect(up.status).toBe(200);
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email });
    expect(created.status).toBe(200);
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    const before = env.smtp.messages.length;
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    const signed = await api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true });
    expect(signed.status).toBe(200);
    return { id: up.body.document_id as string, requestId: created.body.request_id as string, signature: signed.body.signature };
  }
  const signedPdf = async (id: string) =>
    (
      await api()
        .get(`/firma/documentos/${id}/signed-pdf`)
        .set('authorization', key)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        })
    ).body as Buffer;
  const verify = async (pdf: Buffer) =>
    (await api().post('/verificar').set('accept', 'application/json').attach('file', pdf, { filename: 'x.pdf', contentType: 'application/pdf' })).body;

  it('keeps earlier seals valid, holds the next one `sealing` with the error, and seals it once the identity is rotated', async () => {
    const earlier = await signOnce('Antes de revocar', 'ana@example.test');
    expect(earlier.signature).toMatchObject({ status: 'sealed', level: 'B-LTA' });
    const earlierPdf = await signedPdf(earlier.id);
    const stamped = Date.parse((await verify(earlierPdf)).signatures[0].timestamp_time);
    // openssl records the revocation to the second: revoke in a later second than the stamp.
    while (Date.now() < Math.floor(stamped / 1000) * 1000 + 1000) await new Promise((resolve) => setTimeout(resolve, 50));
    await env.pki!.revokeByIntermediate(env.pki!.seal.cert);

    const pending = await signOnce('Después de revocar', 'bea@example.test');
    expect(pending.signature).toMatchObject({ status: 'sealing', level: null });
    expect(pending.signature.error).toMatch(/revoked/);
    // The earlier copy still passes on its own DSS, which proves the certificate good when it was sealed.
    expect((await verify(earlierPdf)).signatures[0]).toMatchObject({ indication: 'TOTAL_PASSED', revocation: { status: 'good', source: 'dss' } });

    // Rotation: a new certificate from the CA, the process restarted on it (same database, queue and files).
    const rotated = await env.pki!.issueSeal('Sello rotado');
    await rt.close();
    rt = await startEsign(
      testConfig({
        ESIGN_DATABASE_URL: env.db.url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        QUEUE_PREFIX: env.prefix,
        SMTP_URL: env.smtp.url,
        SMTP_FROM: 'Firma <firma@example.test>',
        DATA_DIR: env.dataDir,
        ESIGN_PUBLIC_URL: 'https://firma.example.test',
        ESIGN_RATE_LIMIT_PREFIX: `${env.prefix}:rl`,
        TSA_URL: env.tsa!.url,
        ESIGN_REVOCATION_ALLOWLIST: '127.0.0.1',
        SIGNING_P12_PATH: rotated.p12,
        SIGNING_P12_PASSWORD: 'test',
        ESIGN_TRUST_ANCHORS: env.pki!.root,
      }),
      'all',
    );
    // The pending seal's retry (or the start's recovery sweep) seals it under the new certificate.
    const status = await eventually(async () => {
      const res = await api().get(`/firma/solicitudes/${pending.requestId}/estado`).set('authorization', key);
      return res.body.signature?.status === 'sealed' ? res.body : undefined;
    }, 1200);
    expect(status.signature).toMatchObject({ status: 'sealed', level: 'B-LTA' });
    const report = await verify(await signedPdf(pending.id));
    expect(report.signatures[0]).toMatchObject({ signer: expect.any(String), indication: 'TOTAL_PASSED', certificate: expect.objectContaining({ subject: expect.stringContaining('Sello rotado') }) });
  }, 120_000);
});
