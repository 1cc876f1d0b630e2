import request from 'supertest';
import { linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';
import { meterDay } from './day';

/** Billing-grade usage counters: every figure equals a scripted activity, concurrency included. */
describe('usage metering', () => {
  let env: TestEsign;
  let admin: string;
  let key: string;
  const today = meterDay(new Date(), 'UTC');
  const shift = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_metering' });
    admin = await env.keyFor('operator', 'superadmin');
    key = await env.keyFor('metered');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const get = (path: string) => api().get(path).set('authorization', admin);

  async function signedRequests(n: number) {
    const pdf = await samplePdf();
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', pdf, { filename: 'm.pdf', contentType: 'application/pdf' });
    const ready: { token: string; code: string }[] = [];
    for (let i = 0; i < n; i++) {
      const email = `meter${i}.${Date.now()}@example.test`;
      await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email }).expect(200);
      const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
      await api().get(`/firma/firmar/${token}/documento`).expect(200);
      await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
      ready.push({ token, code: otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m)))) });
    }
    return { documentId: up.body.document_id as string, size: pdf.length, ready };
  }

  it('counts 10 concurrent signings as exactly 10, with every other counter as scripted, and zeros on days without activity', async () => {
    const { documentId, size, ready } = await signedRequests(10);
    const results = await Promise.all(ready.map(({ token, code }) => api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    // the final PDF, then tool calls with the key and without one
    await env.rt.signing.signatures.finaliseDocument(documentId);
    await api().post('/firma/tools/info').set('authorization', key).attach('file', await samplePdf(), 'a.pdf').expect(200);
    await api().post('/firma/tools/info').attach('file', await samplePdf(), 'a.pdf').expect(200);
    // emails are counted when sent: 10 links, 10 codes and, once the final PDF is built, the 10 signers' completion copies
    const expected = {
      tenant: 'metered',
      documents_uploaded: 1,
      requests_created: 10,
      emails_sent: 30,
      otps_sent: 10,
      signatures_completed: 10,
      documents_completed: 1,
      documents_erased: 0,
      tool_calls: 1,
      webhook_deliveries: 0,
      storage_bytes: size,
    };
    const deadline = Date.now() + 20_000;
    let mine = (await get('/admin/metering/metered')).body;
    while (mine.emails_sent < 30 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      mine = (await get('/admin/metering/metered')).body;
    }
    expect(mine).toMatchObject(expected);
    const all = (await get(`/admin/metering?from_date=${today}&to_date=${today}`)).body;
    expect(all.find((t: { tenant: string }) => t.tenant === 'metered')).toMatchObject({ ...expected, from_date: today, to_date: today });
    expect(all.find((t: { tenant: string }) => t.tenant === 'anonymous')).toMatchObject({ tool_calls: 1 });
    expect((await get(`/admin/metering?from_date=${shift(-3)}&to_date=${shift(-1)}`)).body).toEqual([]);

    const daily = (await get(`/admin/metering/metered/daily?from_date=${shift(-1)}&to_date=${shift(1)}`)).body;
    expect(daily.map((d: { date: string }) => d.date)).toEqual([shift(-1), today, shift(1)]);
    expect(daily[0]).toMatchObject({ signatures_completed: 0, storage_bytes: 0 });
    expect(daily[1]).toMatchObject({ signatures_completed: 10, documents_uploaded: 1, storage_bytes: size });
    expect(daily[2]).toMatchObject({ signatures_completed: 0, storage_bytes: size });

    // erasure keeps the counters and counts itself; storage goes back down
    await api().delete(`/firma/documentos/${documentId}`).set('authorization', key).expect(200);
    expect((await get('/admin/metering/metered')).body).toMatchObject({ ...expected, documents_erased: 1, storage_bytes: 0 });
  });

  it('refuses a missing, inverted or over-long daily range with 422, and answers 404 for a tenant without activity', async () => {
    expect((await get(`/admin/metering/metered/daily?from_date=${today}`)).status).toBe(422);
    expect((await get(`/admin/metering/metered/daily?from_date=${today}&to_date=${shift(-1)}`)).status).toBe(422);
    expect((await get(`/admin/metering/metered/daily?from_date=${shift(-400)}&to_date=${today}`)).status).toBe(422);
    expect((await get('/admin/metering/metered?from_date=2026-13-01')).status).toBe(422);
    await env.keyFor('silent');
    expect((await get('/admin/metering/silent')).status).toBe(404);
    expect((await get('/admin/metering/nobody')).status).toBe(404);
  });
});
