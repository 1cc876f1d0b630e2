import request from 'supertest';
import { ValidationError } from '@firma-riesgo/errors';
import { WorkerTimeoutError } from '@firma-riesgo/pdf-core';
import { cutIdatPng, makePng, truncatedPng } from '../../../../packages/pdf-core/src/images/__tests__/png-fixtures';
import { linkOf, mailText, otpOf, samplePdf, signingTables, startTestEsign, type TestEsign } from '../__tests__/support';
import { normaliseSignatureImage, parseSignatureImage } from './signature-image';

/**
 * Issue 19, defects 1 and 2: a hostile handwritten-signature PNG must never reach a
 * decoder on the request thread. Before the fix, the truncated PNG below pinned the
 * process at 100% CPU forever, with or without a valid link.
 */
describe('the handwritten signature image is untrusted input', () => {
  let env: TestEsign;
  let key: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_signature_image' });
    key = await env.keyFor('acme');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  let counter = 0;

  async function ready() {
    const email = `pad${++counter}@example.test`;
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'doc.pdf', contentType: 'application/pdf' });
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email });
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /code to sign|digo para firmar/.test(mailText(m))));
    return { token, code, requestId: created.body.request_id as string };
  }

  const confirm = (token: string, code: string, png: Buffer) =>
    api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true, firma_imagen_b64: png.toString('base64') });

  it('answers 404 for a made-up link without looking at the image, and stays responsive', async () => {
    const madeUp = 'x'.repeat(43);
    const results = await Promise.all([
      ...Array.from({ length: 8 }, () => confirm(madeUp, '123456', truncatedPng())),
      ...Array.from({ length: 8 }, () => confirm(madeUp, '123456', cutIdatPng())),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(404));
    expect(results[0]!.body.code).toBe('LINK_NOT_FOUND');
    expect((await api().get('/health')).status).toBe(200);
  });

  it('refuses the truncated PNG from its structure, with 422 naming the field, and the request can still be signed', async () => {
    const { token, code } = await ready();
    const res = await confirm(token, code, truncatedPng());
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'firma_imagen_b64'], type: 'png_invalid' });
    expect(res.body.detail[0].msg).toMatch(/damaged/);
    const ok = await confirm(token, code, makePng(500, 160));
    expect(ok.status).toBe(200);
  });

  it('decodes a structurally valid but cut PNG on a worker thread while /health keeps answering, and stores the re-encoded image', async () => {
    const { token, code, requestId } = await ready();
    const pending = confirm(token, code, cutIdatPng());
    const health = await api().get('/health');
    expect(health.status).toBe(200);
    const res = await pending;
    expect(res.status).toBe(200);
    const row = (await signingTables(env.rt).requests.find(requestId))!;
    expect(row.hasSignatureImage).toBe(true);
    const stored = (await env.rt.signing.files.read(row.signatureImageKey!))!;
    expect(stored.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(stored.equals(cutIdatPng())).toBe(false); // what is kept is the re-encoded image
    expect(stored.readUInt32BE(16)).toBe(200);
    expect(stored.readUInt32BE(20)).toBe(80);
  });

  it('refuses dimensions over the cap from the header, before any decoding', async () => {
    const { token, code } = await ready();
    const huge = makePng(4000, 4000, Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
    const res = await confirm(token, code, huge);
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'firma_imagen_b64'], type: 'png_invalid' });
    expect(res.body.detail[0].msg).toContain('at most 2000×1000');
  });
});

describe('normaliseSignatureImage', () => {
  it('turns a worker terminated for running over its budget into 422 for the field', async () => {
    const pool = { run: () => Promise.reject(new WorkerTimeoutError('normalise-png', 4000)) };
    const err = await normaliseSignatureImage(pool as never, makePng(10, 10)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).status).toBe(422);
    expect((err as ValidationError).issues[0]).toMatchObject({ loc: ['body', 'firma_imagen_b64'], type: 'png_invalid' });
  });

  it('accepts a data: URL prefix and refuses what is not base64', () => {
    expect(parseSignatureImage(`data:image/png;base64,${makePng(5, 5).toString('base64')}`).length).toBeGreaterThan(0);
    expect(() => parseSignatureImage('not base64!')).toThrow(ValidationError);
  });
});
