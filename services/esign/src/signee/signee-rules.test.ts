import request from 'supertest';
import { linkOf, mailText, otpOf, samplePdf, startTestEsign, verifyWithTools, type TestEsign } from '../__tests__/support';

/**
 * The signee flow on the whole stack: what only Postgres, the engines and the HTTP layer
 * show (the row lock, the stored columns, the B-B seal, the form posts). The rules
 * themselves (codes, the lock, expiry, the declaration, the order of the checks) are
 * tested on fakes in signee-rules.unit.test.ts.
 */
describe('the signee flow rules (no TSA: PAdES B-B)', () => {
  let env: TestEsign;
  let key: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_signee_rules' });
    key = await env.keyFor('acme');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  let counter = 0;

  /** A document with one request, viewed, and (unless told otherwise) a code sent: returns token, code and ids. */
  async function ready(options: { sendCode?: boolean; locale?: 'es' | 'en' } = {}) {
    const email = `signee${++counter}@example.test`;
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'doc.pdf', contentType: 'application/pdf' });
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email, locale: options.locale ?? 'es' });
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    let code = '';
    if (options.sendCode !== false) {
      await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
      code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /code to sign|digo para firmar/.test(mailText(m))));
    }
    return { token, code, email, documentId: up.body.document_id as string, requestId: created.body.request_id as string };
  }

  it('lets exactly one of two concurrent confirmations sign', async () => {
    const { token, code, requestId } = await ready();
    const results = await Promise.all([1, 2].map(() => api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.code).toBe('ALREADY_SIGNED');
    const { rows } = await env.rt.database.pool.query("select id from audit_events where request_id = $1 and kind = 'signed'", [requestId]);
    expect(rows).toHaveLength(1);
  });

  it('seals B-B without a TSA, and pdfsig and openssl cms accept it', async () => {
    const { token, code, documentId } = await ready();
    const res = await api().post(`/firma/firmar/${token}/confirmar`).send({ code, declaration_accepted: true });
    expect(res.body.signature).toMatchObject({ status: 'sealed', level: 'B-B', tsa_time: null });
    const copy = await api().get(`/firma/firmar/${token}/firmado`).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(copy.status).toBe(200);
    const tools = await verifyWithTools(copy.body as Buffer);
    expect(tools.pdfsig.stdout).toContain('Signature is Valid');
    expect(tools.pdfsig.stdout).toContain('Total document signed');
    expect(tools.cms[0]!.stderr).toContain('Verification successful');
    expect(tools.ts).toHaveLength(0);
    expect((await api().get(`/firma/documentos/${documentId}/signed-pdf`).set('authorization', key)).status).toBe(200);
  });

  it('stores only hashes of the link token and the code', async () => {
    const { token, code, requestId } = await ready();
    const { rows } = await env.rt.database.pool.query('select * from signing_requests where id = $1', [requestId]);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(`"${code}"`);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    // The code's HMAC under the server key, not an unkeyed hash.
    expect(rows[0].otp_hash).toMatch(/^hmac1:[0-9a-f]{64}$/);
  });

  it('works without JavaScript: form posts from a browser (Accept prefers HTML) answer with redirects back to the page and its messages', async () => {
    const { token, email } = await ready({ sendCode: false });
    const page = `/firma/firmar/${token}`;
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const missing = await api().post(`${page}/otp`).set('accept', browser).type('form').send({});
    expect(missing.status).toBe(303);
    expect(missing.headers.location).toBe(`${page}?error=declaration_required#error`);
    expect((await api().get(`${page}?error=declaration_required`)).text).toContain('Marque la casilla de la declaración');
    const sent = await api().post(`${page}/otp`).set('accept', browser).type('form').send({ declaration_accepted: 'true' });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe(`${page}?aviso=codigo-enviado#code`);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    const bad = await api().post(`${page}/confirmar`).set('accept', browser).type('form').send({ declaration_accepted: 'true', otp_code: '12' });
    expect(bad.headers.location).toBe(`${page}?error=code_format#error`);
    const done = await api().post(`${page}/confirmar`).set('accept', browser).type('form').send({ declaration_accepted: 'true', otp_code: code, firma_imagen_b64: '' });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(page);
    expect((await api().get(page)).text).toContain('Documento firmado');
  });

  it('answers form posts from API clients (Accept */*, JSON or none) with the interface\'s JSON and 4xx codes, never a redirect', async () => {
    const { token } = await ready({ sendCode: false });
    const page = `/firma/firmar/${token}`;
    for (const accept of [undefined, '*/*', 'application/json']) {
      const post = (path: string) => (accept ? api().post(path).set('accept', accept) : api().post(path)).type('form');
      const undeclared = await post(`${page}/otp`).send({});
      expect(undeclared.status).toBe(422);
      expect(undeclared.body.detail[0]).toMatchObject({ loc: ['body', 'declaration_accepted'], type: 'declaration_required' });
      const notBoolean = await post(`${page}/otp`).send({ declaration_accepted: 'maybe' });
      expect(notBoolean.status).toBe(422);
      expect(notBoolean.body.detail[0]).toMatchObject({ loc: ['body', 'declaration_accepted'], msg: 'must be true or false' });
      const noCode = await post(`${page}/confirmar`).send({ declaration_accepted: 'TRUE', otp_code: '12' });
      expect(noCode.status).toBe(422);
      expect(noCode.body.detail[0]).toMatchObject({ loc: ['body', 'otp_code'], type: 'code_format' });
      const notRequested = await post(`${page}/confirmar`).send({ declaration_accepted: 'yes', otp_code: '123456' });
      expect(notRequested.status).toBe(409);
      expect(notRequested.body.code).toBe('OTP_NOT_REQUESTED');
    }
  });
});
