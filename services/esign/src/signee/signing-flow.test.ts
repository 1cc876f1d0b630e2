import { writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import { PDFDocument } from 'pdf-lib';
import { eventually, linkOf, mailText, otpOf, samplePdf, signingTables, startTestEsign, verifyWithTools, type TestEsign } from '../__tests__/support';
import { run, withFile } from '../tools/__tests__/support';

/** A small real PNG (a black diagonal on white), as a signature pad would send. */
async function padPng(): Promise<string> {
  const { deflateSync, crc32 } = await import('node:zlib');
  const width = 120;
  const height = 40;
  const raw = Buffer.alloc((width * 3 + 1) * height, 0xff);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    const x = Math.floor((y / height) * width);
    raw.fill(0, y * (width * 3 + 1) + 1 + x * 3, y * (width * 3 + 1) + 1 + x * 3 + 9);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

describe('the signing flow over HTTP with a real TSA (PAdES B-T)', () => {
  let env: TestEsign;
  let key: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_flow', tsa: true });
    key = await env.keyFor('acme');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);

  async function newDocument(title: string) {
    const pdf = await samplePdf({ title });
    const res = await api().post('/firma/documentos').set('authorization', key).field('title', title).attach('file', pdf, { filename: 'doc.pdf', contentType: 'application/pdf' });
    expect(res.status).toBe(200);
    return { id: res.body.document_id as string, pdf };
  }

  async function newRequest(documentId: string, email: string, extra: Record<string, unknown> = {}) {
    const res = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: email, ...extra });
    expect(res.status).toBe(200);
    const mail = await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/'));
    return { body: res.body, token: linkOf(mail).token, mail };
  }

  async function codeFor(token: string, email: string) {
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    const before = env.smtp.messages.length;
    const sent = await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true });
    expect(sent.status).toBe(200);
    const mail = await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /code to sign|digo para firmar/.test(mailText(m)));
    return otpOf(mail);
  }

  it('takes a signee from the emailed link to a B-T sealed copy that pdfsig, openssl cms and openssl ts accept', async () => {
    const { id, pdf } = await newDocument('Contrato de servicios');
    const { body, token, mail } = await newRequest(id, 'ana@example.test', { signee_name: 'Ana García', message: 'Por favor, firme antes del viernes.' });
    expect(body.signing_url).toBe(`https://firma.example.test/firma/firmar/${token}`);
    expect(mail.raw).toMatch(/Subject: .*Documento para firmar/);

    const page = await api().get(`/firma/firmar/${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html lang="es">');
    expect(page.text).toContain('Contrato de servicios');
    expect(page.headers['referrer-policy']).toBe('no-referrer');

    const early = await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('DOCUMENT_NOT_VIEWED');
    const undeclared = await api().post(`/firma/firmar/${token}/otp`).send({});
    expect(undeclared.status).toBe(422);
    expect(undeclared.body.detail[0]).toMatchObject({ loc: ['body', 'declaration_accepted'], type: 'declaration_required' });

    const viewed = await api().get(`/firma/firmar/${token}/documento`);
    expect(viewed.status).toBe(200);
    expect(viewed.headers['content-type']).toBe('application/pdf');
    expect(viewed.headers['content-disposition']).toMatch(/^inline/);
    expect(Buffer.from(viewed.body).equals(pdf)).toBe(true);

    const sent = await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true });
    expect(sent.body).toEqual({ sent: true, expires_in: 600, email_hint: 'a***@e***.test' });
    const code = otpOf(await env.smtp.waitFor((m) => mailText(m).includes('Su código para firmar') && m.to.includes('ana@example.test')));

    const wrong = await api().post(`/firma/firmar/${token}/confirmar`).send({ code: code === '000000' ? '111111' : '000000', declaration_accepted: true });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'INVALID_OTP', detail: 'Incorrect code; 4 attempts left' });

    const signed = await api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true, firma_imagen_b64: await padPng() });
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ status: 'signed', signature: { status: 'sealed', level: 'B-T', tsa_time: expect.any(String) } });

    const status = await api().get(`/firma/solicitudes/${body.request_id}/estado`).set('authorization', key);
    expect(status.body).toMatchObject({ status: 'signed', otp_attempts_left: 4, signee_name: 'Ana García', signature: { level: 'B-T', status: 'sealed' } });
    expect(status.body.viewed_at).not.toBeNull();

    const copy = await api().get(`/firma/documentos/${id}/signed-pdf`).set('authorization', key).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(copy.status).toBe(200);
    expect(copy.headers['content-disposition']).toMatch(/^attachment/);
    const sealed = copy.body as Buffer;
    expect(createHash('sha256').update(sealed).digest('hex')).toBe(status.body.signature.signed_sha256);
    expect(sealed.subarray(0, pdf.length).equals(pdf)).toBe(true);
    const tools = await verifyWithTools(sealed, { tsaCaFile: env.tsa!.caFile });
    expect(tools.pdfsig.stdout).toContain('Signature is Valid');
    expect(tools.pdfsig.stdout).toContain('Total document signed');
    expect(tools.cms[0]!.stderr).toContain('Verification successful');
    expect(tools.ts[0]!.stdout).toContain('Verification: OK');
    expect((await PDFDocument.load(sealed)).getPageCount()).toBe(2);

    const again = await api().get(`/firma/firmar/${token}`);
    expect(again.text).toContain('Documento firmado');
    expect(again.text).toContain(`/firma/firmar/${token}/firmado`);
  });

  it('signs with a typed name instead of a drawing: set in italics as the signature image, stamped in the copy, recorded as typed', async () => {
    const { id } = await newDocument('Nombre escrito');
    const { body, token } = await newRequest(id, 'typed@example.test');
    const code = await codeFor(token, 'typed@example.test');
    const signed = await api()
      .post(`/firma/firmar/${token}/confirmar`)
      .type('form')
      .send({ otp_code: code, declaration_accepted: 'true', firma_nombre: '  María Núñez Peña ' });
    expect(signed.status).toBe(200);
    const row = await signingTables(env.rt).requests.find(body.request_id);
    const image = await env.rt.signing.files.read(row!.signatureImageKey!);
    expect(image!.readUInt32BE(16)).toBe(500);
    expect(image!.readUInt32BE(20)).toBe(160);
    // the name reads back from the image (Tesseract, the OCR engine of the tools)
    const read = await withFile(image!, async (p) => (await run('tesseract', [p, '-', '-l', 'spa'])).stdout, 'firma.png');
    expect(read.trim()).toBe('María Núñez Peña');
    const copy = await eventually(async () => {
      const res = await api().get(`/firma/documentos/${id}/signed-pdf`).set('authorization', key).buffer(true).parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
      return res.status === 200 ? (res.body as Buffer) : undefined;
    });
    const images = await withFile(copy, async (p) => (await run('pdfimages', ['-list', p])).stdout);
    expect(images).toMatch(/\s500\s+160\s/);
    const signedEvent = (await signingTables(env.rt).audit.listForDocument(id)).find((e) => e.kind === 'signed');
    expect(signedEvent?.details).toMatchObject({ handwritten_image: true, signature_image: 'typed' });
  });

  it('refuses a typed name over 100 characters with 422 naming firma_nombre', async () => {
    const { id } = await newDocument('Nombre largo');
    const { token } = await newRequest(id, 'typed-long@example.test');
    const code = await codeFor(token, 'typed-long@example.test');
    const res = await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true, firma_nombre: 'x'.repeat(101) });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'firma_nombre']);
  });

  it('builds the combined final PDF once all requests are signed, with the audit certificate, sealed once and timestamped', async () => {
    const { id, pdf } = await newDocument('Acuerdo a tres');
    const a = await newRequest(id, 'luis@example.test', { signee_name: 'Luis' });
    const b = await newRequest(id, 'marta@example.test', { signee_name: 'Marta', locale: 'en' });
    const codeA = await codeFor(a.token, 'luis@example.test');
    const codeB = await codeFor(b.token, 'marta@example.test');
    const pending = await api().get(`/firma/documentos/${id}/final-pdf`).set('authorization', key);
    expect(pending.status).toBe(409);
    // The last two confirm at the same moment: the final PDF is still built once.
    const [ra, rb] = await Promise.all([
      api().post(`/firma/firmar/${a.token}/confirmar`).send({ code: codeA, declaration_accepted: true }),
      api().post(`/firma/firmar/${b.token}/confirmar`).send({ code: codeB, declaration_accepted: true }),
    ]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    const doc = await eventually(async () => {
      const res = await api().get(`/firma/documentos/${id}`).set('authorization', key);
      return res.body.final_sha256 ? res.body : undefined;
    });
    expect(doc).toMatchObject({ status: 'signed', final_signature: { level: 'B-T' } });
    const final = await api().get(`/firma/documentos/${id}/final-pdf`).set('authorization', key).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    const bytes = final.body as Buffer;
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(doc.final_sha256);
    expect(bytes.subarray(0, pdf.length).equals(pdf)).toBe(true);
    const tools = await verifyWithTools(bytes, { tsaCaFile: env.tsa!.caFile });
    expect(tools.signatureCount).toBe(1);
    expect(tools.pdfsig.stdout).toContain('Signature is Valid');
    expect(tools.pdfsig.stdout).toContain('Total document signed');
    expect(tools.cms[0]!.stderr).toContain('Verification successful');
    expect(tools.ts[0]!.stdout).toContain('Verification: OK');
    const file = join(env.dataDir, 'final-text.pdf');
    writeFileSync(file, bytes);
    const text = require('node:child_process').execFileSync('pdftotext', ['-layout', file, '-']).toString() as string;
    expect(text).toContain('Certificado de auditoría');
    expect(text).toContain('luis@example.test');
    // codeFor fetched the PDF: the certificate says how each view was made
    expect(text).toMatch(/document_viewed \(via pdf\)/);
    expect(text).toContain(`https://firma.example.test/verificar/${id}`);
    expect(text).toContain('Firmado electrónicamente por');
    expect(text).toContain('Electronically signed by');
    const events = await signingTables(env.rt).audit.listForDocument(id);
    expect(events.filter((e) => e.kind === 'document_finalised')).toHaveLength(1);
    const more = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: id, signee_email: 'late@example.test' });
    expect(more.status).toBe(409);
    expect(more.body.code).toBe('DOCUMENT_FINALISED');
  });

  it('never yields a silent B-B: while the TSA fails the copy stays unsealed and the worker retries until B-T', async () => {
    const { id } = await newDocument('TSA caída');
    const r = await newRequest(id, 'pedro@example.test');
    const code = await codeFor(r.token, 'pedro@example.test');
    env.tsa!.mode = 'wrong-imprint';
    const signed = await api().post(`/firma/firmar/${r.token}/confirmar`).send({ code, declaration_accepted: true });
    expect(signed.status).toBe(200);
    expect(signed.body.signature).toMatchObject({ status: 'sealing', level: null });
    expect(signed.body.signature.error).toMatch(/imprint/);
    const copy = await api().get(`/firma/documentos/${id}/signed-pdf`).set('authorization', key);
    expect(copy.status).toBe(409);
    env.tsa!.mode = 'ok';
    const status = await eventually(async () => {
      const res = await api().get(`/firma/solicitudes/${r.body.request_id}/estado`).set('authorization', key);
      return res.body.signature?.status === 'sealed' ? res.body : undefined;
    });
    expect(status.signature).toMatchObject({ level: 'B-T', error: null });
  });

  it('records every step in the audit trail with time, IP, user agent and the document hash', async () => {
    const { id, pdf } = await newDocument('Auditoría');
    const r = await newRequest(id, 'eva@example.test');
    await api().get(`/firma/firmar/${r.token}`).set('user-agent', 'AuditTest/1.0');
    const code = await codeFor(r.token, 'eva@example.test');
    await api().post(`/firma/firmar/${r.token}/confirmar`).set('user-agent', 'AuditTest/1.0').send({ code, declaration_accepted: true }).expect(200);
    const events = await eventually(async () => {
      const list = await signingTables(env.rt).audit.listForDocument(id);
      return list.some((e) => e.kind === 'email_sent') && list.some((e) => e.kind === 'document_finalised') ? list : undefined;
    });
    const kinds = events.map((e) => e.kind);
    for (const kind of ['request_created', 'email_sent', 'link_opened', 'document_viewed', 'otp_sent', 'otp_verified', 'signed', 'sealed', 'document_finalised']) {
      expect(kinds).toContain(kind);
    }
    const sha = createHash('sha256').update(pdf).digest('hex');
    expect(events.every((e) => e.documentSha256 === sha)).toBe(true);
    const signedEvent = events.find((e) => e.kind === 'signed')!;
    expect(signedEvent).toMatchObject({ email: 'eva@example.test', userAgent: 'AuditTest/1.0' });
    expect(signedEvent.ip).toMatch(/127\.0\.0\.1/);
    await expect(env.rt.database.pool.query('delete from audit_events where document_id = $1', [id])).rejects.toThrow(/append-only/);
    await expect(env.rt.database.pool.query("update audit_events set kind = 'signed' where document_id = $1", [id])).rejects.toThrow(/append-only/);
  });
});
