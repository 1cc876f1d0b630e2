import request from 'supertest';
import { linkOf, mailText, otpOf, samplePdf, signingTables, startTestEsign, type TestEsign } from '../__tests__/support';

/**
 * Reassignment by the tenant and by the signee, on the whole stack: the old link stops at
 * once, the new person is emailed a new link, order and role are kept, the trail records
 * both addresses masked, and five is the limit.
 */
describe('reassigning signing requests', () => {
  let env: TestEsign;
  let key: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_reassign' });
    key = await env.keyFor('acme');
  });

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  async function newDocument(): Promise<string> {
    return (await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'doc.pdf', contentType: 'application/pdf' })).body.document_id as string;
  }
  async function create(documentId: string, email: string, extra: Record<string, unknown> = {}) {
    const res = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: email, ...extra });
    expect(res.status).toBe(200);
    return res.body as { request_id: string; signing_url: string };
  }
  const tokenOf = (url: string) => url.split('/').at(-1)!;

  it('the tenant hands a waiting request on: old link 404 at once, order kept, the new person (not the old one) emailed when the turn comes', async () => {
    const id = await newDocument();
    const first = await create(id, 'primera@example.test');
    const second = await create(id, 'ausente@example.test', { order: 2 });
    const res = await api().post(`/firma/solicitudes/${second.request_id}/reasignar`).set('authorization', key).send({ signee_email: 'colega@example.test', signee_name: 'Colega', motivo: 'De vacaciones' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ request_id: second.request_id, status: 'waiting', reassigned_from: 'a***@e***.test', reassign_reason: 'De vacaciones', email_hint: 'c***@e***.test', reassignments_left: 4 });
    const old = await api().post(`/firma/firmar/${tokenOf(second.signing_url)}/otp`).send({ declaration_accepted: true });
    expect([old.status, old.body.code]).toEqual([404, 'LINK_NOT_FOUND']);
    const status = (await api().get(`/firma/solicitudes/${second.request_id}/estado`).set('authorization', key)).body;
    expect(status).toMatchObject({ signee_email: 'colega@example.test', order: 2, role: 'signer', status: 'waiting', reassigned_from: 'a***@e***.test', reassign_reason: 'De vacaciones' });

    // The first signs; the colleague (not the absent one) gets the new link.
    const t1 = tokenOf(first.signing_url);
    await api().get(`/firma/firmar/${t1}/documento`).expect(200);
    await api().post(`/firma/firmar/${t1}/otp`).send({ declaration_accepted: true }).expect(200);
    const code1 = otpOf(await env.smtp.waitFor((m) => m.to.includes('primera@example.test') && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${t1}/confirmar`).send({ otp_code: code1, declaration_accepted: true }).expect(200);
    const mail = await env.smtp.waitFor((m) => m.to.includes('colega@example.test') && mailText(m).includes('/firma/firmar/'));
    expect(linkOf(mail).url).toBe(res.body.signing_url);
    expect(env.smtp.messages.filter((m) => m.to.includes('ausente@example.test'))).toEqual([]);
    const trail = await signingTables(env.rt).audit.listForDocument(id);
    expect(trail.filter((e) => e.kind === 'reassigned').map((e) => e.details)).toEqual([{ from: 'a***@e***.test', to: 'c***@e***.test', by: 'tenant' }]);

    // The reason is personal data of the request: erasure takes it with the rest.
    await api().delete(`/firma/documentos/${id}`).set('authorization', key).expect(200);
    const [erased] = (await signingTables(env.rt).requests.listForDocument(id)).filter((r) => r.id === second.request_id);
    expect([erased!.reassignReason, erased!.reassignedFrom]).toEqual(['[suprimido]', '[suprimido]']);
  });

  it('the signee hands it on only with allow_reassign, must view again, and five reassignments are the limit', async () => {
    const id = await newDocument();
    const closed = await create(id, 'cerrado@example.test');
    const refused = await api().post(`/firma/firmar/${tokenOf(closed.signing_url)}/reasignar`).send({ signee_email: 'otro@example.test' });
    expect([refused.status, refused.body.code]).toEqual([403, 'REASSIGN_NOT_ALLOWED']);

    const open = await create(id, 'abierto@example.test', { allow_reassign: true });
    const t0 = tokenOf(open.signing_url);
    await api().get(`/firma/firmar/${t0}/documento`).expect(200);
    const handed = await api().post(`/firma/firmar/${t0}/reasignar`).send({ signee_email: 'relevo@example.test' });
    expect(handed.status).toBe(200);
    expect(handed.body).toMatchObject({ status: 'pending', signing_url: null, email_hint: 'r***@e***.test' });
    expect((await api().get(`/firma/firmar/${t0}`)).status).toBe(404);
    const t1 = linkOf(await env.smtp.waitFor((m) => m.to.includes('relevo@example.test') && mailText(m).includes('/firma/firmar/'))).token;
    // The first person's view does not count for the new one.
    const unviewed = await api().post(`/firma/firmar/${t1}/otp`).send({ declaration_accepted: true });
    expect([unviewed.status, unviewed.body.code]).toEqual([409, 'DOCUMENT_NOT_VIEWED']);

    for (let i = 2; i <= 5; i++) {
      await api().post(`/firma/solicitudes/${open.request_id}/reasignar`).set('authorization', key).send({ signee_email: `n${i}@example.test` }).expect(200);
    }
    const sixth = await api().post(`/firma/solicitudes/${open.request_id}/reasignar`).set('authorization', key).send({ signee_email: 'n6@example.test' });
    expect([sixth.status, sixth.body.code]).toEqual([409, 'REASSIGN_LIMIT']);
    const cc = await create(id, 'copia@example.test', { role: 'cc' });
    const ccMove = await api().post(`/firma/solicitudes/${cc.request_id}/reasignar`).set('authorization', key).send({ signee_email: 'x@example.test' });
    expect([ccMove.status, ccMove.body.code]).toEqual([409, 'REQUEST_NOT_REASSIGNABLE']);
  });
});
