import { createHash } from 'node:crypto';
import request from 'supertest';
import { pdftotext } from '../tools/__tests__/support';
import { eventually, linkOf, mailText, otpOf, samplePdf, signingTables, startTestEsign, verifyWithTools, type ReceivedMail, type TestEsign } from '../__tests__/support';

/** The PDF attached to a received email (nodemailer sends it base64-encoded), or null. */
function pdfAttachmentOf(mail: ReceivedMail): Buffer | null {
  const at = mail.raw.search(/Content-Type: application\/pdf/i);
  if (at < 0) return null;
  const headersEnd = mail.raw.indexOf('\r\n\r\n', at);
  const end = mail.raw.indexOf('\r\n--', headersEnd);
  return Buffer.from(mail.raw.slice(headersEnd + 4, end).replace(/\s+/g, ''), 'base64');
}

/**
 * Multi-party signing on the whole stack: real Postgres, the BullMQ worker on Redis, the
 * in-process SMTP server, real seals. Order, roles (approver, cc), link emails written at the turn,
 * the release of the next order (once, under concurrency) and the completion copies.
 */
describe('multi-party signing over HTTP', () => {
  let env: TestEsign;
  let key: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_multiparty' });
    key = await env.keyFor('acme');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);

  async function newDocument(title: string): Promise<string> {
    const pdf = await samplePdf({ title });
    const res = await api().post('/firma/documentos').set('authorization', key).field('title', title).attach('file', pdf, { filename: 'doc.pdf', contentType: 'application/pdf' });
    expect(res.status).toBe(200);
    return res.body.document_id as string;
  }

  async function create(documentId: string, email: string, extra: Record<string, unknown> = {}) {
    const res = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: email, ...extra });
    expect(res.status).toBe(200);
    return res.body as { request_id: string; status: string; signing_url: string | null; order: number; role: string };
  }

  const tokenOf = (url: string) => url.split('/').at(-1)!;
  const linkMailsTo = (email: string) => env.smtp.messages.filter((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/'));
  const outboxOf = async (requestId: string) =>
    (await env.rt.database.pool.query<{ status: string; kind: string }>('select status, kind from email_outbox where request_id = $1 order by created_at', [requestId])).rows;

  /** Views the document, asks for a code and confirms with it (an approver the same way, without an image). */
  async function act(token: string, email: string) {
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    const before = env.smtp.messages.length;
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const mail = await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /digo para firmar/.test(mailText(m)));
    return otpOf(mail);
  }
  const confirm = (token: string, code: string) => api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true });

  it('sequential A then B with C in copy: only A is emailed, B waits (page and 409), A signs, B is emailed and signs, all three get the final PDF attached', async () => {
    const id = await newDocument('Contrato de arrendamiento');
    const a = await create(id, 'a@example.test', { order: 1 });
    const b = await create(id, 'b@example.test', { order: 2, signee_name: 'Beatriz' });
    const c = await create(id, 'c@example.test', { role: 'cc' });
    expect([a.status, a.order, a.role]).toEqual(['pending', 1, 'signer']);
    expect([b.status, b.order, b.role]).toEqual(['waiting', 2, 'signer']);
    expect([c.status, c.role, c.signing_url]).toEqual(['waiting', 'cc', null]);

    await env.smtp.waitFor((m) => m.to.includes('a@example.test') && mailText(m).includes(a.signing_url!));
    expect(await outboxOf(b.request_id)).toEqual([]);
    expect(await outboxOf(c.request_id)).toEqual([]);
    expect(linkMailsTo('b@example.test')).toEqual([]);

    const bToken = tokenOf(b.signing_url!);
    const waitingPage = await api().get(`/firma/firmar/${bToken}`);
    expect(waitingPage.status).toBe(200);
    expect(waitingPage.text).toContain('Esperando su turno');
    expect(waitingPage.text).toContain('Faltan 1 firma anterior');
    await api().get(`/firma/firmar/${bToken}/documento`).expect(200);
    const early = await api().post(`/firma/firmar/${bToken}/otp`).send({ declaration_accepted: true });
    expect([early.status, early.body.code]).toEqual([409, 'NOT_YOUR_TURN']);
    const earlyConfirm = await confirm(bToken, '123456');
    expect([earlyConfirm.status, earlyConfirm.body.code]).toEqual([409, 'NOT_YOUR_TURN']);
    const bStatus = await api().get(`/firma/solicitudes/${b.request_id}/estado`).set('authorization', key);
    expect(bStatus.body).toMatchObject({ status: 'waiting', order: 2, role: 'signer', waiting_for: 1 });

    const aToken = tokenOf(a.signing_url!);
    const signedA = await confirm(aToken, await act(aToken, 'a@example.test'));
    expect(signedA.status).toBe(200);
    const released = await env.smtp.waitFor((m) => m.to.includes('b@example.test') && mailText(m).includes('/firma/firmar/'));
    expect(linkOf(released).token).toBe(bToken);
    expect((await api().get(`/firma/solicitudes/${b.request_id}/estado`).set('authorization', key)).body).toMatchObject({ status: 'pending', waiting_for: 0 });
    const trail = await signingTables(env.rt).audit.listForDocument(id);
    expect(trail.filter((e) => e.kind === 'request_ready').map((e) => [e.requestId, e.details])).toEqual([[b.request_id, { order: 2, role: 'signer' }]]);

    const signedB = await confirm(bToken, await act(bToken, 'b@example.test'));
    expect(signedB.status).toBe(200);

    const doc = await eventually(async () => {
      const res = await api().get(`/firma/documentos/${id}`).set('authorization', key);
      return res.body.final_sha256 ? res.body : undefined;
    });
    expect(doc.status).toBe('signed');
    const copies = await Promise.all(
      ['a@example.test', 'b@example.test', 'c@example.test'].map((to) => env.smtp.waitFor((m) => m.to.includes(to) && /Documento firmado/.test(mailText(m)))),
    );
    for (const mail of copies) {
      const pdf = pdfAttachmentOf(mail);
      expect(pdf).not.toBeNull();
      expect(createHash('sha256').update(pdf!).digest('hex')).toBe(doc.final_sha256);
    }
    const tools = await verifyWithTools(pdfAttachmentOf(copies[2]!)!);
    expect(tools.pdfsig.stdout).toContain('Signature is Valid');
    expect(tools.pdfsig.stdout).toContain('Total document signed');
    const list = await api().get(`/firma/documentos/${id}/solicitudes`).set('authorization', key);
    expect(list.body.map((r: { role: string; order: number; status: string }) => [r.role, r.order, r.status])).toEqual([
      ['signer', 1, 'signed'],
      ['signer', 2, 'signed'],
      ['cc', 1, 'waiting'],
    ]);
  });

  it('an approver at order 1 gates two signers at order 2: both are released by the approval, which takes no stamp; the tenant gets the copy too', async () => {
    await api().put('/firma/ajustes').set('authorization', key).send({ notify_email: 'oficina@acme.example.test' }).expect(200);
    const id = await newDocument('Presupuesto');
    const approver = await create(id, 'jefa@example.test', { role: 'approver' });
    const s1 = await create(id, 's1@example.test', { order: 2 });
    const s2 = await create(id, 's2@example.test', { order: 2 });
    expect([approver.status, s1.status, s2.status]).toEqual(['pending', 'waiting', 'waiting']);
    const page = await api().get(`/firma/firmar/${tokenOf(approver.signing_url!)}`);
    expect(page.text).toContain('Aprobar');
    expect(page.text).not.toContain('id="pad"');

    const token = tokenOf(approver.signing_url!);
    const approved = await confirm(token, await act(token, 'jefa@example.test'));
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ request_id: approver.request_id, status: 'approved', signature: null });
    await Promise.all(['s1@example.test', 's2@example.test'].map((to) => env.smtp.waitFor((m) => m.to.includes(to) && mailText(m).includes('/firma/firmar/'))));
    const trail = await signingTables(env.rt).audit.listForDocument(id);
    expect(trail.filter((e) => e.kind === 'approved').map((e) => e.requestId)).toEqual([approver.request_id]);
    expect(trail.filter((e) => e.kind === 'request_ready').map((e) => e.requestId).sort()).toEqual([s1.request_id, s2.request_id].sort());

    for (const [r, email] of [[s1, 's1@example.test'], [s2, 's2@example.test']] as const) {
      const t = tokenOf(r.signing_url!);
      expect((await confirm(t, await act(t, email))).status).toBe(200);
    }
    const doc = await eventually(async () => {
      const res = await api().get(`/firma/documentos/${id}`).set('authorization', key);
      return res.body.final_sha256 ? res.body : undefined;
    });
    expect(doc.status).toBe('signed');
    const copy = await env.smtp.waitFor((m) => m.to.includes('jefa@example.test') && /Documento firmado/.test(mailText(m)));
    const final = pdfAttachmentOf(copy)!;
    const text = await pdftotext(final);
    // The approval is a line of the audit certificate, in order before the two signers.
    expect(text).toMatch(/Orden \/ Order: 1\s+Rol \/ Role: aprobador \/ approver[\s\S]*Aprobado \/ Approved:/);
    expect(text.match(/Rol \/ Role: firmante \/ signer/g)).toHaveLength(2);
    // The tenant's notification address gets the completion copy too.
    const office = await env.smtp.waitFor((m) => m.to.includes('oficina@acme.example.test') && mailText(m).includes('Presupuesto'));
    expect(createHash('sha256').update(pdfAttachmentOf(office)!).digest('hex')).toBe(doc.final_sha256);
  });

  it('two order-1 signers confirming at the same moment release order 2 exactly once, with exactly one email', async () => {
    const id = await newDocument('Acta');
    const p1 = await create(id, 'p1@example.test');
    const p2 = await create(id, 'p2@example.test');
    const next = await create(id, 'next@example.test', { order: 2 });
    const t1 = tokenOf(p1.signing_url!);
    const t2 = tokenOf(p2.signing_url!);
    const [c1, c2] = [await act(t1, 'p1@example.test'), await act(t2, 'p2@example.test')];
    const results = await Promise.all([confirm(t1, c1), confirm(t2, c2)]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);

    await env.smtp.waitFor((m) => m.to.includes('next@example.test') && mailText(m).includes('/firma/firmar/'));
    const trail = await signingTables(env.rt).audit.listForDocument(id);
    expect(trail.filter((e) => e.kind === 'request_ready').map((e) => e.requestId)).toEqual([next.request_id]);
    // One link email for the released request, sent once (marked sent just after SMTP took it).
    const rows = await eventually(async () => {
      const found = await outboxOf(next.request_id);
      return found.every((r) => r.status === 'sent') ? found : undefined;
    });
    expect(rows).toEqual([{ status: 'sent', kind: 'signing_link' }]);
    const ready = await env.rt.database.pool.query("select count(*)::int as n from webhook_events where document_id = $1 and type = 'request_ready'", [id]);
    expect(ready.rows[0]).toEqual({ n: 1 });
    expect(linkMailsTo('next@example.test')).toHaveLength(1);
  });

  it('refuses a signer below an order that has started with 409 ORDER_ALREADY_STARTED, and writes nothing', async () => {
    const id = await newDocument('Orden empezado');
    await create(id, 'dos@example.test', { order: 2 });
    const before = await env.rt.database.pool.query('select count(*)::int as n from signing_requests where document_id = $1', [id]);
    const below = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: id, signee_email: 'uno@example.test', order: 1 });
    expect([below.status, below.body.code]).toEqual([409, 'ORDER_ALREADY_STARTED']);
    const after = await env.rt.database.pool.query('select count(*)::int as n from signing_requests where document_id = $1', [id]);
    expect(after.rows[0]).toEqual(before.rows[0]);
    expect((await create(id, 'tambien-dos@example.test', { order: 2 })).status).toBe('pending');
    expect((await create(id, 'copia@example.test', { role: 'cc', order: 1 })).status).toBe('waiting');
  });

  it('answers exactly as before to a client that sends no order or role', async () => {
    const id = await newDocument('Sin orden');
    const res = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: id, signee_email: 'solo@example.test' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending', signing_url: expect.stringContaining('/firma/firmar/') });
    await env.smtp.waitFor((m) => m.to.includes('solo@example.test') && mailText(m).includes(res.body.signing_url));
    const invalid = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: id, signee_email: 'x@example.test', order: 51, role: 'witness' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(['body.order', 'body.role']);
  });
});
