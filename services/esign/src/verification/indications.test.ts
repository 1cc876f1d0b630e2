import { readFileSync } from 'node:fs';
import request from 'supertest';
import { createTsaClient, generateSelfSignedPkcs12, loadPkcs12, sealPdf } from '@firma-riesgo/pdf-core';
import { eventually, linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';

/**
 * POST /verificar answers per signature like an ETSI EN 319 102-1 validator: the PAdES level
 * the file reaches, the kind (signature or document timestamp), and an indication with its
 * sub-indication. The TSA belongs to an openssl test PKI whose root is in ESIGN_TRUST_ANCHORS.
 */
describe('verification indications (POST /verificar)', () => {
  let env: TestEsign;
  let sealedCopy: Buffer;
  let documentId: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_indications', tsa: 'pki', env: (pki) => ({ ESIGN_TRUST_ANCHORS: pki!.root }) });
    const key = await env.keyFor('acme');
    const email = 'indications.signee@example.test';
    const up = await api()
      .post('/firma/documentos')
      .set('authorization', key)
      .field('title', 'Contrato <de> "arras" & más')
      .attach('file', await samplePdf(), { filename: 'arras.pdf', contentType: 'application/pdf' });
    expect(up.status).toBe(200);
    documentId = up.body.document_id as string;
    await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: documentId, signee_email: email }).expect(200);
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    await api().get(`/firma/firmar/${token}/documento`).expect(200);
    await api().post(`/firma/firmar/${token}/otp`).send({ declaration_accepted: true }).expect(200);
    const code = otpOf(await env.smtp.waitFor((m) => m.to.includes(email) && /digo para firmar/.test(mailText(m))));
    await api().post(`/firma/firmar/${token}/confirmar`).send({ otp_code: code, declaration_accepted: true }).expect(200);
    sealedCopy = await eventually(async () => {
      const res = await api()
        .get(`/firma/documentos/${documentId}/signed-pdf`)
        .set('authorization', key)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      return res.status === 200 ? (res.body as Buffer) : undefined;
    });
  }, 90_000);

  afterAll(async () => {
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const verify = (file: Buffer, accept = 'application/json') =>
    api().post('/verificar').set('accept', accept).attach('file', file, { filename: 'x.pdf', contentType: 'application/pdf' });

  it("passes the service's B-LTA seal and its document timestamp, each reaching a trust anchor", async () => {
    const res = await verify(sealedCopy);
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(true);
    expect(res.body.signatures).toEqual([
      expect.objectContaining({ kind: 'signature', level: 'B-T', detected_level: 'B-LTA', chain_trusted: true, indication: 'TOTAL_PASSED', sub_indication: null }),
      expect.objectContaining({ kind: 'document_timestamp', level: null, detected_level: null, chain_trusted: true, indication: 'TOTAL_PASSED', sub_indication: null }),
    ]);
    // Every non-anchor certificate of the seal's chain and of its timestamp's TSA chain, answered by the DSS.
    const chain = (res.body.signatures[0].chain_revocation as Array<Record<string, unknown>>).map((r) => [r.chain, r.depth, r.status, r.source]);
    expect(chain).toEqual([
      ['signer', 0, 'good', 'dss'],
      ['signature_timestamp', 0, 'good', 'dss'],
      ['signature_timestamp', 1, 'good', 'dss'],
    ]);
    const html = await verify(sealedCopy, 'text/html').query({ lang: 'en' });
    expect(html.text).toContain('<dt>Revocation in the timestamp TSA&#39;s chain (CN=Test PKI TSA, O=Firma tests)</dt><dd>not revoked (per the file&#39;s validation data (DSS))</dd>');
  });

  it('reports B-T for a seal with a signature timestamp and no DSS', async () => {
    const bt = await sealPdf(await samplePdf(), { identity: env.rt.signing.identity, tsa: createTsaClient({ url: env.tsa!.url }), reason: 'x', fieldName: 'sello-bt', signingTime: new Date() });
    const res = await verify(bt.pdf);
    expect(res.body.signatures).toEqual([expect.objectContaining({ kind: 'signature', detected_level: 'B-T', indication: 'TOTAL_PASSED' })]);
  });

  it('gives TOTAL_FAILED/HASH_FAILURE for one changed byte inside the signed range', async () => {
    const tampered = Buffer.from(sealedCopy);
    const at = tampered.indexOf('/MediaBox') + 2;
    tampered[at] = tampered[at]! ^ 1;
    const res = await verify(tampered);
    expect(res.body.valid).toBe(false);
    expect(res.body.signatures[0]).toMatchObject({ kind: 'signature', integrity: false, indication: 'TOTAL_FAILED', sub_indication: 'HASH_FAILURE' });
    expect(res.body.signatures[1]).toMatchObject({ kind: 'document_timestamp', indication: 'TOTAL_FAILED', sub_indication: 'HASH_FAILURE' });
  });

  it('gives INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND for a signature under an unknown root', async () => {
    const stranger = await loadPkcs12(generateSelfSignedPkcs12({ commonName: 'Unknown Root Signer' }), undefined);
    const signed = await sealPdf(await samplePdf(), { identity: stranger, reason: 'x', fieldName: 'ajena', signingTime: new Date() });
    const res = await verify(signed.pdf);
    expect(res.body.signatures).toEqual([
      expect.objectContaining({ integrity: true, signature_valid: true, chain_trusted: false, detected_level: 'B-B', indication: 'INDETERMINATE', sub_indication: 'NO_CERTIFICATE_CHAIN_FOUND' }),
    ]);
    // The cryptography holds: the existing verdict is unchanged for existing clients.
    expect(res.body.valid).toBe(true);
  });

  it('judges at `?at=`: the B-LTA copy passes later on its DSS; a B-T seal past its certificate\'s expiry is out of bounds, before its start not yet valid', async () => {
    const now = await verify(sealedCopy);
    const [signature, archive] = now.body.signatures as Array<Record<string, any>>;
    expect(signature).toMatchObject({ revocation: { status: 'good', source: 'dss', revoked_at: null }, poe_time: signature!.timestamp_time });
    expect(archive).toMatchObject({ kind: 'document_timestamp', poe_time: archive!.timestamp_time });

    const later = new Date(Date.now() + 10 * 24 * 3600 * 1000).toISOString();
    const res = await verify(sealedCopy).query({ at: later });
    expect(res.status).toBe(200);
    expect(res.body.validation_time).toBe(later);
    expect(res.body.signatures.map((s: { indication: string }) => s.indication)).toEqual(['TOTAL_PASSED', 'TOTAL_PASSED']);

    // The service's seal certificate, judged a day after its expiry: the B-T seal has no proven validation data.
    const bt = await sealPdf(await samplePdf(), { identity: env.rt.signing.identity, tsa: createTsaClient({ url: env.tsa!.url }), reason: 'x', fieldName: 'sello-bt', signingTime: new Date() });
    const expired = new Date(new Date(signature!.certificate.not_after).getTime() + 24 * 3600 * 1000).toISOString();
    const out = await verify(bt.pdf).query({ at: expired });
    expect(out.body.signatures[0]).toMatchObject({ indication: 'INDETERMINATE', sub_indication: 'OUT_OF_BOUNDS_NO_POE', poe_time: out.body.signatures[0].timestamp_time });
    // Before the certificate existed.
    const early = new Date(new Date(signature!.certificate.not_before).getTime() - 1000).toISOString();
    expect((await verify(bt.pdf).query({ at: early })).body.signatures[0]).toMatchObject({ indication: 'INDETERMINATE', sub_indication: 'NOT_YET_VALID', poe_time: null });

    const html = await verify(bt.pdf, 'text/html').query({ at: expired, lang: 'en' });
    expect(html.text).toContain('<code>INDETERMINATE / OUT_OF_BOUNDS_NO_POE</code>');
    expect(html.text).toContain(`<dt>Validation time</dt><dd><time datetime="${expired}">`);
  });

  it('takes `at` from the upload form too: a datetime-local value is UTC, blank means now, the query parameter wins', async () => {
    const bt = await sealPdf(await samplePdf(), { identity: env.rt.signing.identity, tsa: createTsaClient({ url: env.tsa!.url }), reason: 'x', fieldName: 'sello-form', signingTime: new Date() });
    // A day past the seal certificate's expiry, as the browser's datetime-local sends it (no offset, to the second).
    const expired = new Date(env.rt.signing.identity.notAfter.getTime() + 24 * 3600 * 1000);
    expired.setUTCMilliseconds(0);
    const local = expired.toISOString().slice(0, 19);
    const form = await verify(bt.pdf).field('at', local);
    expect(form.status).toBe(200);
    expect(form.body.validation_time).toBe(expired.toISOString());
    expect(form.body.signatures[0]).toMatchObject({ indication: 'INDETERMINATE', sub_indication: 'OUT_OF_BOUNDS_NO_POE' });
    // The HTML report (what the form's browser gets) says the same.
    const html = await verify(bt.pdf, 'text/html').field('at', local).query({ lang: 'en' });
    expect(html.text).toContain('<code>INDETERMINATE / OUT_OF_BOUNDS_NO_POE</code>');
    expect(html.text).toContain(`<dt>Validation time</dt><dd><time datetime="${expired.toISOString()}">`);

    // Left blank: now.
    const blank = await verify(bt.pdf).field('at', '');
    expect(blank.body.signatures[0]).toMatchObject({ indication: 'TOTAL_PASSED' });
    expect(Math.abs(new Date(blank.body.validation_time).getTime() - Date.now())).toBeLessThan(60_000);

    // Both given: the query parameter wins.
    const early = new Date(new Date(blank.body.signatures[0].certificate.not_before).getTime() - 1000).toISOString();
    expect((await verify(bt.pdf).query({ at: early }).field('at', local)).body).toMatchObject({ validation_time: early, signatures: [{ sub_indication: 'NOT_YET_VALID' }] });

    for (const at of ['mañana', '2031-02-30T00:00', '2031-05-04']) {
      const bad = await verify(bt.pdf).field('at', at);
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['form', 'at']);
    }
  });

  it('answers the documented 422 validation error for a malformed `at`, JSON and HTML alike', async () => {
    for (const at of ['mañana', '2031-02-30T00:00:00Z', '2031-05-04']) {
      for (const accept of ['application/json', 'text/html']) {
        const res = await verify(sealedCopy, accept).query({ at });
        expect(res.status).toBe(422);
        expect(res.body.detail[0].loc).toEqual(['query', 'at']);
      }
    }
  });

  it('names the known document in the HTML report, escaped, with a link to its verification page', async () => {
    const json = await verify(sealedCopy);
    expect(json.body.known_document).toEqual({ document_id: documentId, status: 'signed', final_sha256_matches: false, name: 'Contrato <de> "arras" & más' });
    const res = await verify(sealedCopy, 'text/html').query({ lang: 'en' });
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'nonce-[^']+'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    expect(res.text).toContain(`<a href="/verificar/${documentId}?lang=en">Contrato &lt;de&gt; &quot;arras&quot; &amp; más</a>`);
    expect(res.text).not.toContain('<de>');
    expect(res.text).toContain('<code>TOTAL_PASSED</code>');
    expect(res.text).toContain('<dd>B-LTA</dd>');
  });

  it('asks the issuer when the file holds no revocation data: a B-T seal made before the revocation passes, one made after fails REVOKED', async () => {
    const pkiSeal = await loadPkcs12(readFileSync(env.pki!.seal.p12), 'test');
    const tsa = createTsaClient({ url: env.tsa!.url });
    const seal = async () => (await sealPdf(await samplePdf(), { identity: pkiSeal, tsa, reason: 'x', fieldName: 'sello-pki', signingTime: new Date() })).pdf;
    const before = await seal();
    const first = await verify(before);
    expect(first.body.signatures[0]).toMatchObject({ chain_trusted: true, indication: 'TOTAL_PASSED', revocation: { status: 'good', source: 'fetched', revoked_at: null } });
    // openssl records the revocation to the second: revoke in a later second than the stamp.
    const stamped = Date.parse(first.body.signatures[0].timestamp_time as string);
    while (Date.now() < Math.floor(stamped / 1000) * 1000 + 1000) await new Promise((resolve) => setTimeout(resolve, 50));
    await env.pki!.revokeByIntermediate(env.pki!.seal.cert);
    const after = await seal();

    const old = (await verify(before)).body.signatures[0];
    expect(old).toMatchObject({ indication: 'TOTAL_PASSED', sub_indication: null, revocation: { status: 'revoked', source: 'fetched' } });
    expect(Date.parse(old.poe_time)).toBeLessThan(Date.parse(old.revocation.revoked_at));
    const res = await verify(after);
    expect(res.body.signatures[0]).toMatchObject({ indication: 'TOTAL_FAILED', sub_indication: 'REVOKED', revocation: { status: 'revoked', source: 'fetched' } });
    const html = await verify(after, 'text/html').query({ lang: 'en' });
    expect(html.text).toContain('<code>TOTAL_FAILED / REVOKED</code>');
    expect(html.text).toContain('revoked on <time');
  });
});
