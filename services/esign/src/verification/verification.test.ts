import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { eventually, linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';

const SIGNEE_IP = '203.0.113.45';
const USER_AGENT = 'VerifyTest/2.0 (private agent)';

describe('public verification page /verificar/{id}', () => {
  let env: TestEsign;
  let key: string;

  beforeAll(async () => {
    // Trusted gateway: each signee gets a recognisable IP that must never reach the page.
    env = await startTestEsign({ name: 'esign_verify', tsa: true, env: { TRUSTED_PROXIES: '127.0.0.1/32,::1/128,::ffff:127.0.0.1/128' } });
    key = await env.keyFor('verify');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);

  async function upload(title: string): Promise<{ id: string; sha256: string }> {
    const res = await api().post('/firma/documentos').set('authorization', key).field('title', title).attach('file', await samplePdf({ title: 'Verify' }), { filename: 'nomina-privada.pdf', contentType: 'application/pdf' });
    expect(res.status).toBe(200);
    return { id: res.body.document_id, sha256: res.body.sha256 };
  }

  async function requestSignature(documentId: string, email: string, name: string): Promise<string> {
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: email, signee_name: name, message: 'Mensaje confidencial' });
    expect(created.status).toBe(200);
    return linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/'))).token;
  }

  async function sign(token: string, email: string): Promise<void> {
    await api().get(`/firma/firmar/${token}/documento`).set('x-forwarded-for', SIGNEE_IP).set('user-agent', USER_AGENT).expect(200);
    const before = env.smtp.messages.length;
    await api().post(`/firma/firmar/${token}/otp`).set('x-forwarded-for', SIGNEE_IP).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).set('x-forwarded-for', SIGNEE_IP).set('user-agent', USER_AGENT).send({ code, declaration_accepted: true }).expect(200);
  }

  describe('a signed and finalised document', () => {
    let doc: { id: string; sha256: string };
    let record: { final_sha256: string };
    const personal = ['ines.verify@example.test', 'pablo.verify@example.test', 'Inés Verify', 'Pablo Verify', SIGNEE_IP, USER_AGENT, 'Título reservado', 'nomina-privada', 'Mensaje confidencial', 'verify@'];

    beforeAll(async () => {
      doc = await upload('Título reservado');
      const ines = await requestSignature(doc.id, 'ines.verify@example.test', 'Inés Verify');
      const pablo = await requestSignature(doc.id, 'pablo.verify@example.test', 'Pablo Verify');
      await sign(ines, 'ines.verify@example.test');
      await sign(pablo, 'pablo.verify@example.test');
      record = await eventually(async () => {
        const res = await api().get(`/firma/documentos/${doc.id}`).set('authorization', key);
        return res.body.final_sha256 ? res.body : undefined;
      });
    });

    it('shows statuses, masked emails, both hashes, levels and TSA times in Spanish, and no other personal data', async () => {
      const res = await api().get(`/verificar/${doc.id}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.text).toContain('<html lang="es">');
      expect(res.text).toContain('Verificación del documento');
      expect(res.text).toContain('i***@e***.test');
      expect(res.text).toContain('p***@e***.test');
      expect(res.text).toContain(doc.sha256);
      expect(res.text).toContain(record.final_sha256);
      expect(res.text).toContain('PAdES B-T');
      expect(res.text).toContain('<th scope="col">Sello de tiempo (TSA)</th>');
      for (const value of personal) expect({ value, shown: res.text.includes(value) }).toEqual({ value, shown: false });
    });

    it('answers the same data as JSON when the client asks for application/json', async () => {
      const res = await api().get(`/verificar/${doc.id}`).set('accept', 'application/json');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const signature = { status: 'signed', signed_at: expect.any(String), level: 'B-T', tsa_time: expect.any(String) };
      expect(res.body).toEqual({
        document_id: doc.id,
        status: 'signed',
        sha256: doc.sha256,
        final_sha256: record.final_sha256,
        finalised_at: expect.any(String),
        final_signature: { level: 'B-T', tsa_time: expect.any(String) },
        signatures: [
          { ...signature, signee_email_masked: 'i***@e***.test' },
          { ...signature, signee_email_masked: 'p***@e***.test' },
        ],
      });
      for (const value of personal) expect({ value, shown: res.text.includes(value) }).toEqual({ value, shown: false });
    });

    it('speaks English for ?lang=en and for an English Accept-Language, Spanish otherwise', async () => {
      expect((await api().get(`/verificar/${doc.id}?lang=en`)).text).toContain('<html lang="en">');
      const byHeader = await api().get(`/verificar/${doc.id}`).set('accept-language', 'en-GB,en;q=0.8');
      expect(byHeader.text).toContain('<html lang="en">');
      expect(byHeader.text).toContain('Document verification');
      expect((await api().get(`/verificar/${doc.id}`).set('accept-language', 'fr-FR')).text).toContain('<html lang="es">');
      expect((await api().get(`/verificar/${doc.id}?lang=es`).set('accept-language', 'en')).text).toContain('<html lang="es">');
    });

    it('is the page the audit certificate of the final PDF links to', async () => {
      const final = await api().get(`/firma/documentos/${doc.id}/final-pdf`).set('authorization', key).buffer(true).parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
      const file = join(env.dataDir, 'verify-final.pdf');
      writeFileSync(file, final.body as Buffer);
      const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
      const printed = /(https:\/\/firma\.example\.test\/verificar\/[0-9a-f-]{36})/.exec(text)?.[1];
      expect(printed).toBe(`https://firma.example.test/verificar/${doc.id}`);
      const res = await api().get(new URL(printed!).pathname).set('accept', 'application/json');
      expect(res.status).toBe(200);
      expect(res.body.final_sha256).toBe(record.final_sha256);
    });
  });

  it('is documented in OpenAPI as a public route answering JSON or HTML', async () => {
    const doc = await api().get('/openapi.json');
    const route = doc.body.paths['/verificar/{document_id}'].get;
    expect(route.security).toEqual([]);
    expect(Object.keys(route.responses[200].content).sort()).toEqual(['application/json', 'text/html']);
    expect(route.responses[200].content['application/json'].schema.$ref).toBe('#/components/schemas/Verification');
    expect(Object.keys(route.responses).sort()).toEqual(['200', '404', '410', '422']);
  });

  it('answers 404 for an unknown or malformed id: the esign envelope for JSON, a page for browsers', async () => {
    const unknown = await api().get('/verificar/2b1f0c3e-9d7a-4f1e-8c55-0a6b7d9e1f20').set('accept', 'application/json');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Document not found', code: 'DOCUMENT_NOT_FOUND', request_id: expect.any(String) });
    const malformed = await api().get('/verificar/not-a-uuid').set('accept', 'application/json');
    expect(malformed.status).toBe(404);
    expect(malformed.body.code).toBe('DOCUMENT_NOT_FOUND');
    const page = await api().get('/verificar/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Documento no encontrado');
    expect(page.text).not.toContain('<script');
  });

  it('says an erased document was erased (410) and shows its hashes only', async () => {
    const doc = await upload('Para suprimir');
    await requestSignature(doc.id, 'erase.verify@example.test', 'Eva Erase');
    await api().delete(`/firma/documentos/${doc.id}`).set('authorization', key).expect(200);
    const page = await api().get(`/verificar/${doc.id}`);
    expect(page.status).toBe(410);
    expect(page.text).toContain('Documento suprimido');
    expect(page.text).toContain(doc.sha256);
    expect(page.text).not.toContain('***@');
    const json = await api().get(`/verificar/${doc.id}`).set('accept', 'application/json');
    expect(json.status).toBe(410);
    expect(json.body).toEqual({
      detail: 'The document was erased; only its hashes remain',
      code: 'DOCUMENT_ERASED',
      request_id: expect.any(String),
      document_id: doc.id,
      status: 'erased',
      sha256: doc.sha256,
      final_sha256: null,
      erased_at: expect.any(String),
    });
  });

  it('escapes what comes from the signee and shows a pending document without a final hash', async () => {
    const doc = await upload('<script>alert("title")</script>');
    await requestSignature(doc.id, "'quote@example.test", 'Name <b>bold</b>');
    const res = await api().get(`/verificar/${doc.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('&#39;***@e***.test');
    expect(res.text).not.toContain("'***@");
    expect(res.text).not.toContain('<script');
    expect(res.text).not.toContain('<b>');
    expect(res.text).toContain('Pendiente de firma');
    expect(res.text).toContain('Aún no generado');
  });
});
