import request from 'supertest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../__tests__/browser';
import { linkOf, mailText, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';
import { pdftotext } from '../tools/__tests__/support';
import { startReceiver } from '../webhooks/__tests__/receiver';

/**
 * Declining (the signing page's second button, without JavaScript, and JSON) and voiding, on
 * the whole stack: real Postgres, worker, SMTP, a webhook receiver on loopback and Debian chromium.
 */
describe('declining and voiding signing requests', () => {
  let env: TestEsign;
  let browser: Browser;
  let key: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    env = await startTestEsign({ name: 'esign_decline', env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '300ms,300ms', WEBHOOK_TIMEOUT_MS: '2000' } });
    key = await env.keyFor('acme');
    browser = await launchChromium();
    await request(env.rt.server!).post('/firma/webhooks').set('authorization', key).send({ url: receiver.url, events: ['request_declined', 'request_cancelled', 'request_ready'] }).expect(201);
  });

  afterAll(async () => {
    await browser?.close();
    await env?.close();
    await receiver?.close();
  });

  const api = () => request(env.rt.server!);

  async function newDocument(title: string): Promise<string> {
    const res = await api().post('/firma/documentos').set('authorization', key).field('title', title).attach('file', await samplePdf({ title }), { filename: 'doc.pdf', contentType: 'application/pdf' });
    return res.body.document_id as string;
  }
  async function create(documentId: string, email: string, extra: Record<string, unknown> = {}) {
    const res = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: email, ...extra });
    expect(res.status).toBe(200);
    return res.body as { request_id: string; status: string; signing_url: string | null };
  }
  const tokenOf = (url: string) => url.split('/').at(-1)!;
  const status = async (requestId: string) => (await api().get(`/firma/solicitudes/${requestId}/estado`).set('authorization', key)).body;

  it('declines in the browser without JavaScript: document declined, the others cancelled and told, the webhook carries the reason, the audit trail prints it', async () => {
    await api().put('/firma/ajustes').set('authorization', key).send({ notify_email: 'avisos@acme.example.test' }).expect(200);
    const id = await newDocument('Contrato de obra');
    const ana = await create(id, 'ana.rechaza@example.test');
    const luis = await create(id, 'luis.paralelo@example.test');
    const marta = await create(id, 'marta.despues@example.test', { order: 2 });
    const copia = await create(id, 'gestoria.copia@example.test', { role: 'cc' });
    const { url } = linkOf(await env.smtp.waitFor((m) => m.to.includes('ana.rechaza@example.test') && mailText(m).includes('/firma/firmar/')));

    const context = await browser.newContext({ locale: 'es-ES', javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${env.rt.url}${new URL(url).pathname}`);
      await page.getByLabel('Motivo del rechazo').fill('El importe no coincide con el presupuesto');
      await page.getByRole('button', { name: 'Rechazar' }).click();
      await page.getByRole('heading', { name: 'Firma rechazada' }).waitFor();
    } finally {
      await context.close();
    }

    expect(await status(ana.request_id)).toMatchObject({ status: 'declined', decline_reason: 'El importe no coincide con el presupuesto', declined_at: expect.any(String) });
    for (const other of [luis, marta, copia]) expect((await status(other.request_id)).status).toBe('cancelled');
    expect((await api().get(`/firma/documentos/${id}`).set('authorization', key)).body.status).toBe('declined');
    for (const to of ['luis.paralelo@example.test', 'marta.despues@example.test', 'gestoria.copia@example.test']) {
      await env.smtp.waitFor((m) => m.to.includes(to) && mailText(m).includes('Otra persona ha rechazado firmar'));
    }
    // Marta's turn never came: her link email was never sent, and is gone.
    expect(env.smtp.messages.filter((m) => m.to.includes('marta.despues@example.test') && mailText(m).includes('/firma/firmar/'))).toEqual([]);
    const held = await env.rt.database.pool.query("select count(*)::int as n from email_outbox where request_id = $1 and kind = 'signing_link'", [marta.request_id]);
    expect(held.rows[0]).toEqual({ n: 0 });

    const notice = await env.smtp.waitFor((m) => m.to.includes('avisos@acme.example.test') && mailText(m).includes('Contrato de obra'));
    expect(mailText(notice)).toContain('Motivo / Reason: El importe no coincide con el presupuesto');
    const [declined] = await receiver.waitFor((m) => m.json.type === 'request_declined' && m.json.data.request_id === ana.request_id);
    expect(declined!.json.data).toMatchObject({ document_id: id, signee_email: 'ana.rechaza@example.test', reason: 'El importe no coincide con el presupuesto' });
    const cancelled = await receiver.waitFor((m) => m.json.type === 'request_cancelled' && m.json.data.document_id === id, 3);
    expect(cancelled.map((m) => m.json.data.reason)).toEqual(['declined', 'declined', 'declined']);

    const admin = await env.keyFor('root', 'superadmin');
    const trail = await api().get(`/admin/documents/${id}/audit?format=pdf`).set('authorization', admin).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(trail.status).toBe(200);
    const text = (await pdftotext(trail.body as Buffer)).replace(/\s+/g, ' ');
    expect(text).toContain('Rechazado / Declined');
    expect(text).toContain('Motivo / Reason: El importe no coincide con el presupuesto');

    const again = await api().post(`/firma/firmar/${tokenOf(new URL(url).pathname)}/otp`).send({ declaration_accepted: true });
    expect([again.status, again.body.code]).toEqual([410, 'REQUEST_DECLINED']);
  });

  it('keeps the tenant settings: defaults until set, PUT replaces them (absent fields take their defaults), invalid values 422, tenant erasure removes them', async () => {
    const other = await env.keyFor('ajustes');
    expect((await api().get('/firma/ajustes').set('authorization', other)).body).toEqual({ notify_email: null, reminder_every_hours: 72, reminder_max: 3, embed_origins: [], updated_at: null });
    const put = await api().put('/firma/ajustes').set('authorization', other).send({ notify_email: 'x@ajustes.example.test', reminder_every_hours: 24, reminder_max: 5 });
    expect(put.body).toMatchObject({ notify_email: 'x@ajustes.example.test', reminder_every_hours: 24, reminder_max: 5, updated_at: expect.any(String) });
    expect((await api().get('/firma/ajustes').set('authorization', other)).body).toEqual(put.body);
    const replaced = await api().put('/firma/ajustes').set('authorization', other).send({ reminder_max: 1 });
    expect(replaced.body).toMatchObject({ notify_email: null, reminder_every_hours: 72, reminder_max: 1 });
    for (const [body, field] of [[{ notify_email: 'no-es-correo' }, 'notify_email'], [{ reminder_every_hours: 12 }, 'reminder_every_hours'], [{ reminder_max: 11 }, 'reminder_max']] as const) {
      const bad = await api().put('/firma/ajustes').set('authorization', other).send(body);
      expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ['body', field]]);
    }
    await api().put('/firma/ajustes').set('authorization', other).send({ notify_email: 'x@ajustes.example.test' }).expect(200);
    // No key: the declared authorization header is missing (interface: a validation error).
    expect((await api().get('/firma/ajustes')).status).toBe(422);
    const admin = await env.keyFor('root2', 'superadmin');
    await api().delete('/admin/tenants/ajustes/data').set('authorization', admin).expect(200);
    const left = await env.rt.database.pool.query('select count(*)::int as n from tenant_settings t join tenants n on n.id = t.tenant_id where n.name = $1', ['ajustes']);
    expect(left.rows[0]).toEqual({ n: 0 });
  });

  it('declines over JSON, and refuses an empty or too long reason', async () => {
    const id = await newDocument('Acuerdo');
    const r = await create(id, 'json.rechaza@example.test');
    const token = tokenOf(r.signing_url!);
    for (const motivo of [undefined, '   ', 'x'.repeat(501)]) {
      const bad = await api().post(`/firma/firmar/${token}/rechazar`).send(motivo === undefined ? {} : { motivo });
      expect([bad.status, bad.body.detail?.[0]?.loc]).toEqual([422, ['body', 'motivo']]);
    }
    const ok = await api().post(`/firma/firmar/${token}/rechazar`).send({ motivo: 'No procede' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ request_id: r.request_id, status: 'declined', cancelled: 0 });
    const twice = await api().post(`/firma/firmar/${token}/rechazar`).send({ motivo: 'Otra vez' });
    expect([twice.status, twice.body.code]).toEqual([410, 'REQUEST_DECLINED']);
  });

  it('voids a request: cancelled, its signee told with the reason, its link closed, the next order released; voiding it again answers 409', async () => {
    const id = await newDocument('Anexo');
    const first = await create(id, 'primero@example.test');
    const second = await create(id, 'segundo@example.test', { order: 2 });
    await env.smtp.waitFor((m) => m.to.includes('primero@example.test') && mailText(m).includes('/firma/firmar/'));

    const voided = await api().post(`/firma/solicitudes/${first.request_id}/anular`).set('authorization', key).send({ motivo: 'Se ha enviado a la persona equivocada' });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ request_id: first.request_id, status: 'cancelled', cancelled_at: expect.any(String) });
    const notice = await env.smtp.waitFor((m) => m.to.includes('primero@example.test') && mailText(m).includes('ha retirado la solicitud'));
    expect(mailText(notice)).toContain('Se ha enviado a la persona equivocada');
    const closed = await api().get(`/firma/firmar/${tokenOf(first.signing_url!)}/documento`);
    expect([closed.status, closed.body.code]).toEqual([410, 'REQUEST_CANCELLED']);
    await env.smtp.waitFor((m) => m.to.includes('segundo@example.test') && mailText(m).includes(second.signing_url!));
    expect((await status(second.request_id)).status).toBe('pending');
    const [event] = await receiver.waitFor((m) => m.json.type === 'request_cancelled' && m.json.data.request_id === first.request_id);
    expect(event!.json.data.reason).toBe('voided');

    const again = await api().post(`/firma/solicitudes/${first.request_id}/anular`).set('authorization', key).send({ motivo: 'Otra vez' });
    expect([again.status, again.body.code]).toEqual([409, 'REQUEST_NOT_VOIDABLE']);
    const other = await env.keyFor('otra');
    const foreign = await api().post(`/firma/solicitudes/${second.request_id}/anular`).set('authorization', other).send({ motivo: 'No es mío' });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'REQUEST_NOT_FOUND']);
    const empty = await api().post(`/firma/solicitudes/${second.request_id}/anular`).set('authorization', key).send({});
    expect(empty.status).toBe(422);
  });
});
