import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { Redis } from 'ioredis';
import { startReceiver } from '../webhooks/__tests__/receiver';
import { eventually, linkOf, mailText, otpOf, samplePdf, signingTables, startTestEsign, type TestEsign } from './support';

const SIGNEE_IP = '203.0.113.77';

describe('erasure and tenant isolation', () => {
  let env: TestEsign;

  beforeAll(async () => {
    // The gateway is trusted, so X-Forwarded-For gives each signee a recognisable address.
    env = await startTestEsign({ name: 'esign_erasure', env: { TRUSTED_PROXIES: '127.0.0.1/32,::1/128,::ffff:127.0.0.1/128', WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);

  async function documentWithRequests(key: string, title: string, signees: { email: string; name: string; sign: boolean }[]) {
    const up = await api().post('/firma/documentos').set('authorization', key).field('title', title).attach('file', await samplePdf(), { filename: 'documento.pdf', contentType: 'application/pdf' });
    const out: { requestId: string; token: string }[] = [];
    for (const s of signees) {
      const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: s.email, signee_name: s.name, message: `Hola ${s.name}` });
      const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(s.email) && mailText(m).includes('/firma/firmar/')));
      out.push({ requestId: created.body.request_id, token });
    }
    // Every request exists before anyone signs: the first signature must not complete the document.
    for (const [i, s] of signees.entries()) {
      if (!s.sign) continue;
      const { token } = out[i]!;
      await api().get(`/firma/firmar/${token}/documento`).set('x-forwarded-for', SIGNEE_IP).expect(200);
      await api().post(`/firma/firmar/${token}/otp`).set('x-forwarded-for', SIGNEE_IP).send({ declaration_accepted: true }).expect(200);
      const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(s.email) && /digo para firmar/.test(mailText(m))));
      await api().post(`/firma/firmar/${token}/confirmar`).set('x-forwarded-for', SIGNEE_IP).send({ code, declaration_accepted: true }).expect(200);
    }
    return { documentId: up.body.document_id as string, requests: out };
  }

  it('erases a document: files gone, pending links cancelled, no personal data left in Postgres or Redis, hashes kept', async () => {
    const key = await env.keyFor('erasure');
    // a webhook endpoint that receives every event, and quotes the payload back in its answer
    const receiver = await startReceiver();
    receiver.answer({ status: 200, body: 'received' });
    await api().post('/firma/webhooks').set('authorization', key).send({ url: receiver.url }).expect(201);
    const { documentId, requests } = await documentWithRequests(key, 'Nómina confidencial', [
      { email: 'zoe.erase@example.test', name: 'Zoe Ruiz', sign: true },
      { email: 'yago.erase@example.test', name: 'Yago Pino', sign: false },
    ]);
    await eventually(async () => {
      const events = await signingTables(env.rt).audit.listForDocument(documentId);
      return events.filter((e) => e.kind === 'email_sent').length >= 3 ? events : undefined;
    });
    await receiver.waitFor((m) => m.json.type === 'document_signed' && m.json.data.document_id === documentId);
    const before = await api().get(`/firma/documentos/${documentId}`).set('authorization', key);
    const folder = join(env.dataDir, 'esign', 'files', 'documents', documentId);
    expect(existsSync(folder)).toBe(true);

    const res = await api().delete(`/firma/documentos/${documentId}`).set('authorization', key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ document_id: documentId, erased: true, requests_anonymised: 2 });
    expect(res.body.events_anonymised).toBeGreaterThan(5);
    expect(existsSync(folder)).toBe(false);

    const pending = await api().get(`/firma/firmar/${requests[1]!.token}`);
    expect(pending.text).toContain('Solicitud cancelada');
    expect((await api().get(`/firma/firmar/${requests[1]!.token}/documento`)).status).toBe(410);
    expect((await api().get(`/firma/firmar/${requests[0]!.token}`)).text).toContain('Documento suprimido');
    // interface §7: the signed PDF is missing (404, the documented error body), and the body says why
    const signedPdf = await api().get(`/firma/documentos/${documentId}/signed-pdf`).set('authorization', key);
    expect(signedPdf.status).toBe(404);
    expect(signedPdf.body).toMatchObject({ code: 'DOCUMENT_ERASED', detail: expect.stringContaining('erased') });

    const after = await api().get(`/firma/documentos/${documentId}`).set('authorization', key);
    expect(after.body).toMatchObject({ status: 'erased', sha256: before.body.sha256, filename: '[suprimido]', title: '[suprimido]' });
    const listed = await api().get(`/firma/documentos/${documentId}/solicitudes`).set('authorization', key);
    expect(listed.body.map((r: { status: string }) => r.status).sort()).toEqual(['cancelled', 'signed']);
    expect(listed.body.every((r: { signee_email: string }) => r.signee_email === '[suprimido]')).toBe(true);

    // the erasure's own events went out too (their payloads hold no address)
    await receiver.waitFor((m) => m.json.type === 'document_erased' && m.json.data.document_id === documentId);
    const personal = ['zoe.erase@example.test', 'yago.erase@example.test', SIGNEE_IP, 'Zoe Ruiz', 'Yago Pino', 'Nómina confidencial'];
    const { rows: tables } = await env.rt.database.pool.query("select tablename from pg_tables where schemaname = 'public'");
    for (const { tablename } of tables as { tablename: string }[]) {
      const { rows } = await env.rt.database.pool.query(`select row_to_json(t)::text as j from "${tablename}" t`);
      const dump = rows.map((r: { j: string }) => r.j).join('\n');
      for (const value of personal) expect({ table: tablename, found: dump.includes(value) ? value : null }).toEqual({ table: tablename, found: null });
    }
    const { rows: events } = await env.rt.database.pool.query('select ip, email, document_sha256 from audit_events where document_id = $1', [documentId]);
    expect(events.every((e: { document_sha256: string }) => e.document_sha256 === before.body.sha256)).toBe(true);
    expect(events.some((e: { ip: string | null }) => e.ip === '[suprimido]')).toBe(true);

    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      const keys = await redis.keys(`${env.prefix}:*`);
      for (const k of keys) {
        const type = await redis.type(k);
        const value =
          type === 'hash' ? JSON.stringify(await redis.hgetall(k))
          : type === 'string' ? String(await redis.get(k))
          : type === 'list' ? JSON.stringify(await redis.lrange(k, 0, -1))
          : type === 'zset' ? JSON.stringify(await redis.zrange(k, 0, -1))
          : type === 'set' ? JSON.stringify(await redis.smembers(k))
          : '';
        for (const p of personal) expect({ key: k, found: value.includes(p) ? p : null }).toEqual({ key: k, found: null });
      }
    } finally {
      redis.disconnect();
    }

    const again = await api().delete(`/firma/documentos/${documentId}`).set('authorization', key);
    expect(again.body).toEqual({ document_id: documentId, erased: true, requests_anonymised: 0, events_anonymised: 0 });
    await receiver.close();
  });

  it('writes no email_sent event with an address for an email reported while its document is being erased', async () => {
    const key = await env.keyFor('erasure-race');
    const { documentId, requests } = await documentWithRequests(key, 'Carrera', [{ email: 'race.erase@example.test', name: 'Raúl', sign: false }]);
    // The erasure holds the document row (as DELETE /firma/documentos does) while the mail job reports a delivery.
    const erasure = await env.rt.database.pool.connect();
    try {
      await erasure.query('begin');
      await erasure.query('select id from documents where id = $1 for update', [documentId]);
      const reported = env.rt.signing.emailSent({ id: 'race', documentId, requestId: requests[0]!.requestId, kind: 'otp', to: 'race.erase@example.test', sentAt: new Date() });
      await erasure.query("update audit_events set email = '[suprimido]' where document_id = $1", [documentId]);
      await erasure.query('update documents set erased_at = now() where id = $1', [documentId]);
      await erasure.query('commit');
      await reported;
    } finally {
      erasure.release();
    }
    const { rows } = await env.rt.database.pool.query("select kind from audit_events where document_id = $1 and email like 'race.erase@%'", [documentId]);
    expect(rows).toEqual([]);
  });

  it('writes no address for a page opening or a view made while the document is being erased', async () => {
    const key = await env.keyFor('erasure-race-views');
    const { documentId, requests } = await documentWithRequests(key, 'Carrera de vistas', [{ email: 'race.view@example.test', name: 'Vera', sign: false }]);
    const token = requests[0]!.token;
    // The erasure holds the request row (as DELETE /firma/documentos does: it cancels and anonymises requests first).
    const erasure = await env.rt.database.pool.connect();
    try {
      await erasure.query('begin');
      await erasure.query('select id from documents where id = $1 for update', [documentId]);
      await erasure.query("update signing_requests set status = 'cancelled' where document_id = $1", [documentId]);
      const opened = api().get(`/firma/firmar/${token}`).then((r) => r.status);
      const viewed = api().get(`/firma/firmar/${token}/documento`).then((r) => r.status);
      // Whether they read the request before the erasure commits or after, no address may be written.
      await new Promise((resolve) => setImmediate(resolve));
      await erasure.query("update signing_requests set signee_email = '[suprimido]' where document_id = $1", [documentId]);
      await erasure.query("update audit_events set email = '[suprimido]' where document_id = $1", [documentId]);
      await erasure.query('update documents set erased_at = now() where id = $1', [documentId]);
      await erasure.query('commit');
      await Promise.all([opened, viewed]);
    } finally {
      erasure.release();
    }
    const { rows } = await env.rt.database.pool.query("select kind from audit_events where document_id = $1 and email like 'race.view@%'", [documentId]);
    expect(rows).toEqual([]);
  });

  it("answers every tenant endpoint called with another tenant's key with 404, and signed-pdf with 403 unless superadmin", async () => {
    const owner = await env.keyFor('owner');
    const intruder = await env.keyFor('intruder');
    const admin = await env.keyFor('operator', 'superadmin');
    const { documentId, requests } = await documentWithRequests(owner, 'Privado', [{ email: 'owner.signee@example.test', name: 'Olga', sign: true }]);
    const requestId = requests[0]!.requestId;
    await eventually(async () => ((await api().get(`/firma/documentos/${documentId}`).set('authorization', owner)).body.final_sha256 ? true : undefined));

    const matrix: [string, () => request.Test, number][] = [
      ['GET document', () => api().get(`/firma/documentos/${documentId}`), 404],
      ['GET requests of document', () => api().get(`/firma/documentos/${documentId}/solicitudes`), 404],
      ['GET request status', () => api().get(`/firma/solicitudes/${requestId}/estado`), 404],
      ['POST request for document', () => api().post('/firma/solicitudes').send({ document_id: documentId, signee_email: 'x@example.test' }), 404],
      ['GET final-pdf', () => api().get(`/firma/documentos/${documentId}/final-pdf`), 404],
      ['GET signed-pdf', () => api().get(`/firma/documentos/${documentId}/signed-pdf`), 403],
      ['DELETE document', () => api().delete(`/firma/documentos/${documentId}`), 404],
    ];
    for (const [name, call, expected] of matrix) {
      const res = await call().set('authorization', intruder);
      expect({ name, status: res.status }).toEqual({ name, status: expected });
      if (name.startsWith('GET')) expect({ name, owner: (await call().set('authorization', owner)).status }).toEqual({ name, owner: 200 });
    }
    const page = await api().get('/firma/mis-documentos').set('authorization', intruder);
    expect(page.text).not.toContain(documentId);
    expect((await api().get(`/firma/documentos/${documentId}/signed-pdf`).set('authorization', admin)).status).toBe(200);
    expect((await api().get(`/firma/documentos/${documentId}`).set('authorization', admin)).status).toBe(404);
    expect((await api().get(`/firma/documentos/${documentId}`).set('authorization', owner)).body.status).toBe('signed');
  });

  it("answers another tenant's GET of a document or its requests with 404 and writes nothing (no expiry, audit row or webhook event)", async () => {
    const owner = await env.keyFor('sweep-owner');
    const intruder = await env.keyFor('sweep-intruder');
    const { documentId, requests } = await documentWithRequests(owner, 'Caducable', [{ email: 'sweep.signee@example.test', name: 'Sara', sign: false }]);
    await env.rt.database.pool.query("update signing_requests set expires_at = now() - interval '1 minute' where id = $1", [requests[0]!.requestId]);
    const written = async () => {
      const { rows } = await env.rt.database.pool.query(
        `select (select count(*) from audit_events where document_id = $1 and kind = 'request_expired')::int as audit,
                (select count(*) from webhook_events where document_id = $1 and type = 'request_expired')::int as webhook,
                (select status from signing_requests where id = $2) as status`,
        [documentId, requests[0]!.requestId],
      );
      return rows[0];
    };
    expect((await api().get(`/firma/documentos/${documentId}`).set('authorization', intruder)).status).toBe(404);
    expect((await api().get(`/firma/documentos/${documentId}/solicitudes`).set('authorization', intruder)).status).toBe(404);
    expect(await written()).toEqual({ audit: 0, webhook: 0, status: 'pending' });
    // the owner's read runs the sweep
    expect((await api().get(`/firma/documentos/${documentId}`).set('authorization', owner)).status).toBe(200);
    expect(await written()).toEqual({ audit: 1, webhook: 1, status: 'expired' });
  });

  it('answers a missing key with 422 and an unknown key with 401 on the tenant endpoints', async () => {
    const missing = await api().get('/firma/mis-documentos');
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['header', 'authorization']);
    expect((await api().post('/firma/solicitudes').set('authorization', `esk_${'x'.repeat(43)}`).send({})).status).toBe(401);
  });

  it('reports the self-signed sealing certificate in /health', async () => {
    const res = await api().get('/health');
    expect(res.body.signing).toEqual({ self_signed: true, tsa: false, certificate_sha256: createHash('sha256').update(env.rt.signing.identity.certificateDer).digest('hex') });
    expect(existsSync(join(env.dataDir, 'esign', 'signing', 'self-signed-seal.p12'))).toBe(true);
  });
});
