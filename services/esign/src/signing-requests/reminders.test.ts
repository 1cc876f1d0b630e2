import request from 'supertest';
import { eventually, linkOf, mailText, samplePdf, signingTables, startTestEsign, type TestEsign } from '../__tests__/support';

/**
 * Reminders on the whole stack under an injected clock: the `reminders.sweep` job (run at
 * will through the real queue) sends the scheduled reminders and the expiry warning with the
 * same link, a manual reminder answers 429 with Retry-After within the hour, and each is in
 * the trail and counted as an email.
 */
describe('reminders', () => {
  let env: TestEsign;
  let key: string;
  let now = new Date('2026-12-01T09:00:00Z');
  const HOUR = 3600_000;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_reminders', clock: () => now, env: { ESIGN_REMINDER_INTERVAL_MS: '3600000' } });
    key = await env.keyFor('acme');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const sweep = () =>
    env.rt.jobs!.queue.enqueueAndWait('reminders.sweep', {}, { timeoutMs: 30_000 }) as Promise<{ ran: boolean; value: { reminders: number; warnings: number; cancelledByExpiry: number } }>;
  const mailsTo = (email: string, subject: RegExp) => env.smtp.messages.filter((m) => m.to.includes(email) && subject.test(mailText(m)));

  it('sends the scheduled reminders with the same link up to reminder_max, then the expiry warning 24 h before expiry, once', async () => {
    const doc = (await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'doc.pdf', contentType: 'application/pdf' })).body.document_id;
    const created = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: doc, signee_email: 'recordar@example.test', expires_in_hours: 120, reminder_every_hours: 24, reminder_max: 2 });
    expect(created.status).toBe(200);
    const id = created.body.request_id as string;
    const link = linkOf(await env.smtp.waitFor((m) => m.to.includes('recordar@example.test') && mailText(m).includes('/firma/firmar/')));
    const status = async () => (await api().get(`/firma/solicitudes/${id}/estado`).set('authorization', key)).body;
    expect(await status()).toMatchObject({ reminders_sent: 0, next_reminder_at: '2026-12-02T09:00:00.000Z' });

    expect(await sweep()).toEqual({ ran: true, value: { reminders: 0, warnings: 0, cancelledByExpiry: 0 } });
    now = new Date(now.getTime() + 24 * HOUR);
    expect(await sweep()).toEqual({ ran: true, value: { reminders: 1, warnings: 0, cancelledByExpiry: 0 } });
    const first = await env.smtp.waitFor((m) => m.to.includes('recordar@example.test') && /Subject: Recordatorio/.test(mailText(m)));
    expect(linkOf(first).token).toBe(link.token);
    expect(await sweep()).toEqual({ ran: true, value: { reminders: 0, warnings: 0, cancelledByExpiry: 0 } });
    now = new Date(now.getTime() + 24 * HOUR);
    expect(await sweep()).toEqual({ ran: true, value: { reminders: 1, warnings: 0, cancelledByExpiry: 0 } });
    expect(await status()).toMatchObject({ reminders_sent: 2, next_reminder_at: null });
    now = new Date(now.getTime() + 24 * HOUR);
    expect(await sweep()).toEqual({ ran: true, value: { reminders: 0, warnings: 0, cancelledByExpiry: 0 } });

    // 120 h after creation it expires: the warning goes from 96 h on, once.
    now = new Date('2026-12-05T09:00:00Z');
    expect(await sweep()).toEqual({ ran: true, value: { reminders: 0, warnings: 1, cancelledByExpiry: 0 } });
    expect(await sweep()).toEqual({ ran: true, value: { reminders: 0, warnings: 0, cancelledByExpiry: 0 } });
    const warning = await env.smtp.waitFor((m) => m.to.includes('recordar@example.test') && /Subject: Su enlace caduca pronto/.test(mailText(m)));
    expect(linkOf(warning).token).toBe(link.token);
    expect(mailsTo('recordar@example.test', /Subject: Recordatorio/)).toHaveLength(2);

    const trail = await signingTables(env.rt).audit.listForDocument(doc);
    expect(trail.filter((e) => e.kind === 'reminder_sent').map((e) => e.details)).toEqual([
      { kind: 'reminder', manual: false, n: 1 },
      { kind: 'reminder', manual: false, n: 2 },
      { kind: 'expiry_warning', manual: false, n: 1 },
    ]);
  });

  it("takes the tenant's reminder defaults for a request that sets none, and the request's own values otherwise", async () => {
    const tenant = await env.keyFor('sin-recordatorios');
    await api().put('/firma/ajustes').set('authorization', tenant).send({ reminder_every_hours: 0 }).expect(200);
    const doc = (await api().post('/firma/documentos').set('authorization', tenant).attach('file', await samplePdf(), { filename: 'doc.pdf', contentType: 'application/pdf' })).body.document_id;
    const plain = (await api().post('/firma/solicitudes').set('authorization', tenant).send({ document_id: doc, signee_email: 'def@example.test' })).body;
    const own = (await api().post('/firma/solicitudes').set('authorization', tenant).send({ document_id: doc, signee_email: 'own@example.test', reminder_every_hours: 48 })).body;
    const estado = async (id: string) => (await api().get(`/firma/solicitudes/${id}/estado`).set('authorization', tenant)).body;
    expect((await estado(plain.request_id)).next_reminder_at).toBeNull();
    expect((await estado(own.request_id)).next_reminder_at).toBe(new Date(now.getTime() + 48 * HOUR).toISOString());
    const bad = await api().post('/firma/solicitudes').set('authorization', tenant).send({ document_id: doc, signee_email: 'x@example.test', reminder_every_hours: 5 });
    expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ['body', 'reminder_every_hours']]);
  });

  it('sends a manual reminder at once, answers 429 with Retry-After within the hour, and 409 for a request that is not pending', async () => {
    now = new Date('2026-12-10T09:00:00Z');
    const doc = (await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'doc.pdf', contentType: 'application/pdf' })).body.document_id;
    const created = (await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: doc, signee_email: 'manual@example.test' })).body;
    const waiting = (await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: doc, signee_email: 'luego@example.test', order: 2 })).body;

    const first = await api().post(`/firma/solicitudes/${created.request_id}/recordar`).set('authorization', key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ request_id: created.request_id, reminders_sent: 1 });
    await env.smtp.waitFor((m) => m.to.includes('manual@example.test') && /Subject: Recordatorio/.test(mailText(m)));

    now = new Date(now.getTime() + 20 * 60_000);
    const again = await api().post(`/firma/solicitudes/${created.request_id}/recordar`).set('authorization', key);
    expect([again.status, again.body.code, again.headers['retry-after']]).toEqual([429, 'REMINDER_RATE_LIMITED', '2400']);
    now = new Date(now.getTime() + 40 * 60_000);
    expect((await api().post(`/firma/solicitudes/${created.request_id}/recordar`).set('authorization', key)).status).toBe(200);

    const notYet = await api().post(`/firma/solicitudes/${waiting.request_id}/recordar`).set('authorization', key);
    expect([notYet.status, notYet.body.code]).toEqual([409, 'REQUEST_NOT_PENDING']);
    const foreign = await api().post(`/firma/solicitudes/${created.request_id}/recordar`).set('authorization', await env.keyFor('otra'));
    expect([foreign.status, foreign.body.code]).toEqual([404, 'REQUEST_NOT_FOUND']);
    // Each reminder is delivered as an email, recorded (`email_sent`) and counted like any other: the link and two reminders.
    const sent = await eventually(async () => {
      const rows = (await signingTables(env.rt).audit.listForDocument(doc)).filter((e) => e.kind === 'email_sent' && e.requestId === created.request_id);
      return rows.length === 3 ? rows : undefined;
    });
    expect(sent).toHaveLength(3);
  });

  it('cancels the waiting order and the cc, and tells them, once a lower order expired: the sweep does it with nobody reading the document', async () => {
    now = new Date('2026-12-20T09:00:00Z');
    const doc = (await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'doc.pdf', contentType: 'application/pdf' })).body.document_id;
    const create = async (body: object) => (await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: doc, ...body })).body;
    const first = await create({ signee_email: 'primero@example.test', expires_in_hours: 24, reminder_every_hours: 0 });
    const second = await create({ signee_email: 'segundo@example.test', order: 2, reminder_every_hours: 0 });
    const copy = await create({ signee_email: 'copia@example.test', role: 'cc' });
    const estado = async (id: string) => (await api().get(`/firma/solicitudes/${id}/estado`).set('authorization', key)).body;

    // Earlier tests' documents are settled first: a second before the expiry, this one's requests stay as they are.
    now = new Date('2026-12-21T08:59:59Z');
    await sweep();
    expect((await sweep()).value.cancelledByExpiry).toBe(0);
    expect((await estado(second.request_id)).status).toBe('waiting');

    now = new Date('2026-12-21T09:00:00Z');
    expect((await sweep()).value.cancelledByExpiry).toBe(2);
    const rows = await signingTables(env.rt).requests.listForDocument(doc);
    expect(rows.map((r) => [r.signeeEmail, r.status, r.cancelReason]).sort()).toEqual([
      ['copia@example.test', 'cancelled', 'expired'],
      ['primero@example.test', 'expired', null],
      ['segundo@example.test', 'cancelled', 'expired'],
    ]);
    for (const to of ['segundo@example.test', 'copia@example.test']) {
      const notice = await env.smtp.waitFor((m) => m.to.includes(to) && /Subject: Solicitud de firma cancelada/.test(mailText(m)));
      expect(mailText(notice)).toContain('ha caducado');
    }
    // The waiting signee never got a link email; its link now answers as a cancelled link does.
    expect(mailsTo('segundo@example.test', /\/firma\/firmar\//)).toEqual([]);
    const link = await api().post(`/firma/firmar/${second.signing_url.split('/').pop()}/otp`).send({ declaration_accepted: true });
    expect([link.status, link.body.code]).toEqual([410, 'REQUEST_CANCELLED']);
    expect((await api().get(`/firma/documentos/${doc}`).set('authorization', key)).body.status).toBe('expired');
    const trail = await signingTables(env.rt).audit.listForDocument(doc);
    const cancelled = trail.filter((e) => e.kind === 'request_cancelled');
    expect(cancelled.map((e) => e.requestId).sort()).toEqual([second.request_id, copy.request_id].sort());
    expect(cancelled.map((e) => e.details)).toEqual([{ reason: 'expired' }, { reason: 'expired' }]);
    expect((await sweep()).value.cancelledByExpiry).toBe(0);
    expect(first.status).toBe('pending');
  });
});
