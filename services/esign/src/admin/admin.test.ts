import request from 'supertest';
import { linkOf, mailText, otpOf, samplePdf, startTestEsign, verifyWithTools, type TestEsign } from '../__tests__/support';

/** The superadmin operations of interface §4.5 built so far, against a scripted activity. */
describe('administration', () => {
  let env: TestEsign;
  let admin: string;
  let tenantKey: string;
  let otherKey: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_admin' });
    admin = await env.keyFor('operator', 'superadmin');
    tenantKey = await env.keyFor('alpha');
    otherKey = await env.keyFor('beta');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const as = (key: string) => ({ get: (p: string) => api().get(p).set('authorization', key), del: (p: string) => api().delete(p).set('authorization', key) });

  async function upload(key: string) {
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'a.pdf', contentType: 'application/pdf' });
    return up.body.document_id as string;
  }

  async function requestAndSign(key: string, documentId: string, email: string, sign: boolean) {
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: email });
    if (!sign) return created.body.request_id as string;
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code === '000000' ? '111111' : '000000', declaration_accepted: true });
    await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true }).expect(200);
    return created.body.request_id as string;
  }

  it.each([
    ['get', '/admin/tenants'],
    ['get', '/admin/documents'],
    ['get', '/admin/documents/00000000-0000-4000-8000-000000000000/audit'],
    ['get', '/admin/stats'],
    ['delete', '/admin/tenants/alpha/data'],
  ])('%s %s: 422 without a key, 401 with an unknown one, 403 with a tenant key', async (method, path) => {
    const call = (key?: string) => {
      const req = method === 'get' ? api().get(path) : api().delete(path);
      return key === undefined ? req : req.set('authorization', key);
    };
    const none = await call();
    expect(none.status).toBe(422);
    expect(none.body.detail[0].loc).toEqual(['header', 'authorization']);
    expect((await call('Bearer esk_unknown')).status).toBe(401);
    const tenant = await call(tenantKey);
    expect(tenant.status).toBe(403);
    expect(tenant.body.code).toBe('SUPERADMIN_REQUIRED');
  });

  it('lists tenants, documents (X-Total-Count, Link), a trail and the global figures as scripted', async () => {
    const a1 = await upload(tenantKey);
    const a2 = await upload(tenantKey);
    const b1 = await upload(otherKey);
    const signedRequest = await requestAndSign(tenantKey, a1, 'signer.admin@example.test', true);
    await requestAndSign(tenantKey, a2, 'waiting.admin@example.test', false);

    const tenants = (await as(admin).get('/admin/tenants')).body;
    expect(tenants.map((t: { tenant: string }) => t.tenant)).toEqual(['alpha', 'beta']);
    expect(tenants[0]).toMatchObject({ tenant: 'alpha', documents: 2, documents_pending: 1, documents_signed: 1, requests: 2, signatures: 1 });
    expect(tenants[1]).toMatchObject({ tenant: 'beta', documents: 1, documents_pending: 0, documents_signed: 0, requests: 0, signatures: 0 });

    const page = await as(admin).get('/admin/documents?limit=2');
    expect(page.status).toBe(200);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.body.map((d: { document_id: string }) => d.document_id)).toEqual([b1, a2]);
    expect(page.headers.link).toBe('</admin/documents?status=all&limit=2&offset=2>; rel="next"');
    const second = await as(admin).get('/admin/documents?limit=2&offset=2');
    expect(second.body.map((d: { document_id: string }) => d.document_id)).toEqual([a1]);
    expect(second.headers.link).toBe('</admin/documents?status=all&limit=2&offset=0>; rel="prev"');
    expect((await as(admin).get('/admin/documents?tenant=alpha&status=signed')).body.map((d: { document_id: string }) => d.document_id)).toEqual([a1]);
    for (const bad of ['limit=0', 'limit=501', 'offset=-1', 'status=draft']) expect((await as(admin).get(`/admin/documents?${bad}`)).status).toBe(422);

    const trail = await as(admin).get(`/admin/documents/${a1}/audit`);
    expect(trail.status).toBe(200);
    expect(trail.body.document).toMatchObject({ document_id: a1, tenant: 'alpha' });
    const kinds = trail.body.requests[0].events.map((e: { kind: string }) => e.kind);
    expect(trail.body.requests[0].request_id).toBe(signedRequest);
    expect(kinds).toEqual(expect.arrayContaining(['request_created', 'document_viewed', 'otp_sent', 'otp_failed', 'otp_verified', 'signed', 'sealed']));
    expect((await as(admin).get('/admin/documents/00000000-0000-4000-8000-000000000000/audit')).status).toBe(404);
    // the same trail as a sealed PDF, which poppler's pdfsig and the text reader accept
    const pdf = await as(admin)
      .get(`/admin/documents/${a1}/audit?format=pdf`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const checked = await verifyWithTools(pdf.body as Buffer);
    expect(checked.pdfsig.stdout).toContain('Signature is Valid');
    expect((await as(admin).get('/admin/documents/00000000-0000-4000-8000-000000000000/audit?format=pdf')).status).toBe(404);

    const stats = (await as(admin).get('/admin/stats')).body;
    expect(stats).toMatchObject({ tenants: 2, signatures: 1, signatures_last: { '24h': 1, '7d': 1, '30d': 1 }, otp_failure_rate: 0.5 });
    expect(stats.documents).toMatchObject({ all: 3, pending: 1, signed: 1 });
    expect(stats.requests).toMatchObject({ signed: 1, pending: 1 });
    expect(stats.median_seconds_to_sign).toBeGreaterThanOrEqual(0);
    expect(stats.queues).toMatchObject({ esign: { waiting: expect.any(Number), active: expect.any(Number) }, 'esign-webhooks': { failed: expect.any(Number) } });
  });

  it("refuses to erase a tenant while a request is pending (409), then erases every document and leaves none of its emails", async () => {
    const key = await env.keyFor('gamma');
    const doc = await upload(key);
    const pending = await requestAndSign(key, doc, 'gamma.pending@example.test', false);
    await upload(key);
    const refused = await as(admin).del('/admin/tenants/gamma/data');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('TENANT_HAS_PENDING_REQUESTS');
    expect(refused.body.detail).toContain(pending);
    await env.rt.database.pool.query("update signing_requests set expires_at = now() - interval '1 minute' where id = $1", [pending]);
    const erased = await as(admin).del('/admin/tenants/gamma/data');
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ tenant: 'gamma', deleted_documents: 2 });
    // the tenant no longer exists once erased (its row went with its keys)
    expect((await as(admin).del('/admin/tenants/gamma/data')).status).toBe(404);
    expect((await as(admin).del('/admin/tenants/nobody/data')).status).toBe(404);
    // no table keeps the tenant's signee addresses
    const { rows: tables } = await env.rt.database.pool.query("select tablename from pg_tables where schemaname = 'public'");
    for (const { tablename } of tables as { tablename: string }[]) {
      const { rows } = await env.rt.database.pool.query(`select count(*)::int as n from "${tablename}" t where row_to_json(t)::text like '%gamma.pending@%'`);
      expect({ table: tablename, rows: rows[0].n }).toEqual({ table: tablename, rows: 0 });
    }
    const { rows: log } = await env.rt.database.pool.query("select action, tenant, count from admin_log where tenant = 'gamma' order by id");
    expect(log).toEqual([{ action: 'tenant_erased', tenant: 'gamma', count: 2 }]);
  });
});
