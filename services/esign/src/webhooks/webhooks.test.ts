import { WEBHOOK_EVENT_TYPES } from './event-types';
import request from 'supertest';
import { linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';
import { startReceiver, verify } from './__tests__/receiver';

/**
 * Tenant webhooks end to end: real receivers on loopback, signatures checked
 * with the Standard Webhooks reference library, deliveries through BullMQ on Redis.
 */
describe('webhooks', () => {
  let env: TestEsign;
  let key: string;
  let otherKey: string;
  let adminKey: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    env = await startTestEsign({
      name: 'esign_webhooks',
      env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms,300ms', WEBHOOK_TIMEOUT_MS: '2000' },
    });
    key = await env.keyFor('acme');
    otherKey = await env.keyFor('globex');
    adminKey = await env.keyFor('operator', 'superadmin');
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const create = (body: object, k = key) => api().post('/firma/webhooks').set('authorization', k).send(body);

  it('creates endpoints (201, secret shown once), lists and reads them without it, and changes them', async () => {
    const created = await create({ url: receiver.url, description: 'ERP' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url, description: 'ERP', active: true, events: expect.arrayContaining(['document_signed', 'document_erased']) });
    expect(created.body.events).toHaveLength(WEBHOOK_EVENT_TYPES.length);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const second = await create({ url: receiver.url, events: ['document_signed'] });
    expect(second.status).toBe(201);
    const list = await api().get('/firma/webhooks').set('authorization', key);
    expect(list.status).toBe(200);
    expect(list.body.map((w: { webhook_id: string }) => w.webhook_id).sort()).toEqual([created.body.webhook_id, second.body.webhook_id].sort());
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const patched = await api().patch(`/firma/webhooks/${second.body.webhook_id}`).set('authorization', key).send({ events: ['document_signed', 'document_completed'], description: 'signed only' });
    expect(patched.body).toMatchObject({ events: ['document_signed', 'document_completed'], description: 'signed only' });
    expect((await api().delete(`/firma/webhooks/${second.body.webhook_id}`).set('authorization', key)).status).toBe(204);
    expect((await api().get(`/firma/webhooks/${second.body.webhook_id}`).set('authorization', key)).status).toBe(404);
    await api().delete(`/firma/webhooks/${created.body.webhook_id}`).set('authorization', key).expect(204);
  });

  it('refuses an unknown event type with 422', async () => {
    const res = await create({ url: receiver.url, events: ['document_signed', 'document_exploded'] });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc[1]).toBe('events');
  });

  it("keeps every tenant out of another's webhooks (404), and lets a superadmin delete any", async () => {
    const mine = (await create({ url: receiver.url })).body.webhook_id as string;
    const routes: [string, string][] = [
      ['get', `/firma/webhooks/${mine}`],
      ['patch', `/firma/webhooks/${mine}`],
      ['delete', `/firma/webhooks/${mine}`],
      ['post', `/firma/webhooks/${mine}/test`],
      ['post', `/firma/webhooks/${mine}/rotate-secret`],
      ['get', `/firma/webhooks/${mine}/deliveries`],
      ['post', `/firma/webhooks/${mine}/deliveries/00000000-0000-4000-8000-000000000000/retry`],
    ];
    for (const [method, path] of routes) {
      const res = await (api() as unknown as Record<string, (p: string) => request.Test>)[method]!(path).set('authorization', otherKey).send({ description: 'x' });
      expect({ path, method, status: res.status }).toEqual({ path, method, status: 404 });
    }
    expect((await api().get('/firma/webhooks').set('authorization', otherKey)).body).toEqual([]);
    expect((await api().delete(`/firma/webhooks/${mine}`).set('authorization', adminKey)).status).toBe(204);
  });

  it('test-delivers a signed synthetic document_signed, and reports 200, 500 and an unreachable receiver in a 200 body', async () => {
    const { webhook_id: id, secret } = (await create({ url: receiver.url })).body;
    receiver.answer({ status: 200 });
    const ok = await api().post(`/firma/webhooks/${id}/test`).set('authorization', key);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status_code: 200, ok: true, error: null });
    const [message] = await receiver.waitFor((m) => m.json.data.test === true);
    expect(verify(secret, message!)).toMatchObject({ type: 'document_signed' });
    expect(message!.headers['user-agent']).toMatch(/^firma-riesgo-esign-webhooks\//);
    receiver.answer({ status: 500, body: 'boom' });
    expect((await api().post(`/firma/webhooks/${id}/test`).set('authorization', key)).body).toMatchObject({ status_code: 500, ok: false, error: 'HTTP 500' });
    const dead = await create({ url: 'http://127.0.0.1:1/hooks' });
    const unreachable = await api().post(`/firma/webhooks/${dead.body.webhook_id}/test`).set('authorization', key);
    expect(unreachable.status).toBe(200);
    expect(unreachable.body).toMatchObject({ status_code: null, ok: false, error: expect.stringContaining('ECONNREFUSED') });
    receiver.answer({ status: 204 });
    await api().delete(`/firma/webhooks/${id}`).set('authorization', key);
    await api().delete(`/firma/webhooks/${dead.body.webhook_id}`).set('authorization', key);
  });

  it('delivers the events of a real signing flow in order, signed, one webhook-id per delivery, and survives a receiver down for several retries', async () => {
    const { webhook_id: id, secret } = (await create({ url: receiver.url })).body;
    receiver.answer({ status: 204 });
    const email = 'webhook.signee@example.test';
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'w.pdf', contentType: 'application/pdf' });
    const documentId = up.body.document_id as string;
    await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: email }).expect(200);
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await receiver.waitFor((m) => m.json.type === 'document_viewed' && m.json.data.document_id === documentId);
    // the receiver goes away for a while: the signing must not care
    await receiver.down();
    await api().post(`/firma/firmar/${token}/otp`).type('form').send({ declaration_accepted: 'true' }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).type('form').send({ otp_code: code, declaration_accepted: 'true' }).expect(200);
    const log = async () => (await api().get(`/firma/webhooks/${id}/deliveries`).set('authorization', key)).body;
    // wait until the signed event has failed at least twice, then come back
    for (;;) {
      const items = (await log()).items as { type: string; attempts: unknown[] }[];
      if ((items.find((d) => d.type === 'document_signed')?.attempts.length ?? 0) >= 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await receiver.up();
    const ofDoc = (m: { json: { data: Record<string, unknown> } }) => m.json.data.document_id === documentId;
    await receiver.waitFor((m) => ofDoc(m) && m.json.type === 'document_completed');
    const messages = receiver.received.filter(ofDoc);
    expect([...new Set(messages.map((m) => m.json.type))]).toEqual(['request_created', 'document_viewed', 'document_signed', 'document_completed']);
    for (const m of messages) expect(verify(secret, m)).toBeTruthy();
    const signed = messages.find((m) => m.json.type === 'document_signed')!;
    expect(signed.json.data).toMatchObject({ document_id: documentId, tenant: 'acme', signee_email: email, signature_level: 'B-B', request_id: expect.any(String), signed_at: expect.any(String), document_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // every delivery kept one webhook-id across its attempts, and the log shows the failures
    const ids = new Map<string, Set<string>>();
    for (const m of messages) ids.set(m.json.type, (ids.get(m.json.type) ?? new Set()).add(m.headers['webhook-id']!));
    for (const set of ids.values()) expect(set.size).toBe(1);
    const items = (await log()).items as { type: string; status: string; attempts: { status_code: number | null; error: string | null }[] }[];
    const signedDelivery = items.find((d) => d.type === 'document_signed')!;
    expect(signedDelivery.status).toBe('succeeded');
    expect(signedDelivery.attempts.length).toBeGreaterThanOrEqual(3);
    expect(signedDelivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining('ECONNREFUSED') });
    expect(signedDelivery.attempts.at(-1)).toMatchObject({ status_code: 204, error: null });
    await api().delete(`/firma/webhooks/${id}`).set('authorization', key);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const { webhook_id: id, secret: oldSecret } = (await create({ url: receiver.url })).body;
    const rotated = await api().post(`/firma/webhooks/${id}/rotate-secret`).set('authorization', key);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(oldSecret);
    await api().post(`/firma/webhooks/${id}/test`).set('authorization', key).expect(200);
    const message = receiver.received.at(-1)!;
    expect(message.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(oldSecret, message)).toBeTruthy();
    expect(verify(rotated.body.secret, message)).toBeTruthy();
    await api().delete(`/firma/webhooks/${id}`).set('authorization', key);
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const { webhook_id: id } = (await create({ url: receiver.url, events: ['request_created'] })).body;
    receiver.answer({ status: 410 });
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'g.pdf', contentType: 'application/pdf' });
    await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: 'gone@example.test' }).expect(200);
    for (;;) {
      const w = (await api().get(`/firma/webhooks/${id}`).set('authorization', key)).body;
      if (!w.active) {
        expect(w.disabled_reason).toMatch(/410/);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    receiver.answer({ status: 204 });
    await api().delete(`/firma/webhooks/${id}`).set('authorization', key);
  });

  it('erasure leaves no signee address in stored payloads or receivers\u2019 answers', async () => {
    const { webhook_id: id } = (await create({ url: receiver.url })).body;
    receiver.answer({ status: 200, body: 'got erase.me@example.test' });
    const email = 'erase.me@example.test';
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'e.pdf', contentType: 'application/pdf' });
    await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email }).expect(200);
    await receiver.waitFor((m) => m.json.type === 'request_created' && m.json.data.signee_email === email);
    await api().delete(`/firma/documentos/${up.body.document_id}`).set('authorization', key).expect(200);
    await receiver.waitFor((m) => m.json.type === 'document_erased' && m.json.data.document_id === up.body.document_id);
    const { rows } = await env.rt.database.pool.query<{ dump: string }>(
      "select (select coalesce(string_agg(data::text, ' '), '') from webhook_events) || (select coalesce(string_agg(coalesce(response_body, ''), ' '), '') from webhook_attempts) as dump",
    );
    expect(rows[0]!.dump).not.toContain(email);
    receiver.answer({ status: 204 });
    await api().delete(`/firma/webhooks/${id}`).set('authorization', key);
  });
});
