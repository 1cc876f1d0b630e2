import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadPkcs12, type SigningIdentity } from './identity';
import { sealPdf, type SealOptions } from './pades';
import { createRevocationClient } from './revocation-client';
import { createTsaClient, type TsaClient } from './tsa-client';
import { verifyPdfSignatures, type VerifyPdfOptions } from './verify';
import { startOpensslPki, type OpensslPki } from './__tests__/openssl-pki';
import { startOpensslTsa, type OpensslTsa } from './__tests__/openssl-tsa';
import { DAY, pem, samplePdf, untilClockPasses } from './__tests__/over-time-fixtures';

/**
 * Verification across time against a real PKI: a seal certificate that lives one day (the
 * TSA's thirty), validated at a later `validationTime` instead of waiting; revocation
 * answered by a real `openssl ocsp` responder, in the file's DSS or fetched.
 */
describe('verification at a validation time: expiry, revocation and the proof of existence', () => {
  let pki: OpensslPki;
  let tsaServer: OpensslTsa;
  let tsa: TsaClient;
  let identity: SigningIdentity;
  let anchors: VerifyPdfOptions;
  let sealNotAfter: Date;

  beforeAll(async () => {
    pki = await startOpensslPki({ sealDays: 1 });
    tsaServer = await startOpensslTsa({ ...pki.tsa, caFile: pki.root });
    tsa = createTsaClient({ url: tsaServer.url });
    identity = await loadPkcs12(readFileSync(pki.seal.p12), 'test');
    anchors = { trustAnchors: [new X509Certificate(readFileSync(pki.root)).raw] };
    sealNotAfter = new Date(new X509Certificate(readFileSync(pki.seal.cert)).validTo);
  }, 60_000);

  afterAll(async () => {
    await tsaServer?.close();
    await pki?.close();
  });

  const seal = async (level: NonNullable<SealOptions['level']>) =>
    (await sealPdf(await samplePdf(), { identity, tsa: level === 'B-B' ? undefined : tsa, level, revocation: createRevocationClient({ timeoutMs: 5_000 }), signingTime: new Date(), reason: 'Archivo', fieldName: 'sello' })).pdf;
  const signatureAt = (pdf: Buffer, validationTime: Date, extra: Partial<VerifyPdfOptions> = {}) => {
    const report = verifyPdfSignatures(pdf, { ...anchors, validationTime, ...extra });
    expect(report.validationTime).toBe(validationTime.toISOString());
    return report;
  };

  it('B-LTA stays TOTAL_PASSED past the seal certificate’s expiry; B-T and B-LT become INDETERMINATE/OUT_OF_BOUNDS_NO_POE', async () => {
    const [lta, lt, bt] = [await seal('B-LTA'), await seal('B-LT'), await seal('B-T')];
    const afterExpiry = new Date(sealNotAfter.getTime() + 2 * DAY);

    const now = signatureAt(lta, new Date());
    expect(now.signatures.map((s) => s.indication)).toEqual(['TOTAL_PASSED', 'TOTAL_PASSED']);
    expect(now.signatures[0]!.revocation).toMatchObject({ status: 'good', source: 'dss', revokedAt: null });

    const later = signatureAt(lta, afterExpiry);
    const [signature, archive] = later.signatures;
    expect(signature).toMatchObject({ kind: 'signature', detectedLevel: 'B-LTA', indication: 'TOTAL_PASSED', subIndication: null });
    // The best POE is the earliest valid timestamp: the signature's own, before the expiry.
    expect(signature!.poeTime).toBe(signature!.timestampTime);
    expect(new Date(signature!.poeTime!).getTime()).toBeLessThan(sealNotAfter.getTime());
    expect(new Date(signature!.revocation.thisUpdate!).getTime()).toBeLessThan(sealNotAfter.getTime());
    expect(archive).toMatchObject({ kind: 'document-timestamp', indication: 'TOTAL_PASSED', poeTime: archive!.timestampTime });

    for (const pdf of [lt, bt]) {
      expect(signatureAt(pdf, new Date()).signatures[0]!.indication).toBe('TOTAL_PASSED');
      expect(signatureAt(pdf, afterExpiry).signatures[0]).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'OUT_OF_BOUNDS_NO_POE' });
    }
    // Before the certificate existed, nothing it signed can be judged valid.
    expect(signatureAt(bt, new Date(Date.now() - DAY)).signatures[0]).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'NOT_YET_VALID', poeTime: null });

    // Once the TSA's certificate has expired too, the archive timestamp proves nothing more (it would need renewing).
    const tsaNotAfter = new Date(new X509Certificate(readFileSync(pki.tsa.cert)).validTo);
    const beyond = signatureAt(lta, new Date(tsaNotAfter.getTime() + DAY));
    expect(beyond.signatures.map((s) => [s.indication, s.subIndication])).toEqual([
      ['INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE'],
      ['INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE'],
    ]);
  });

  it('a revoked seal certificate: seals proven before the revocation pass, later ones fail REVOKED, one without a POE is REVOKED_NO_POE', async () => {
    const ltaBefore = await seal('B-LTA');
    const btBefore = await seal('B-T');
    const stampedAt = new Date(verifyPdfSignatures(btBefore).signatures[0]!.timestampTime!);
    // openssl records the revocation to the second: revoke in a later second than the stamps above.
    await untilClockPasses(new Date(Math.max(stampedAt.getTime(), new Date(verifyPdfSignatures(ltaBefore).signatures[1]!.timestampTime!).getTime())));
    await pki.revokeByIntermediate(pki.seal.cert);
    const btAfter = await seal('B-T');
    const bbAfter = await seal('B-B');

    // What a verifier fetches: the responder's checked answer, revoked or not.
    const answer = await createRevocationClient({ timeoutMs: 5_000 }).answerFor!(pem(pki.seal.cert), pem(pki.intermediate));
    expect(answer).toMatchObject({ kind: 'ocsp', revoked: true });
    const fetched = { revocationData: { ocsps: [new Uint8Array(answer.der)], crls: [] } };
    const now = new Date(Date.now() + 60_000);

    const before = signatureAt(btBefore, now, fetched).signatures[0]!;
    expect(before).toMatchObject({ indication: 'TOTAL_PASSED', revocation: { status: 'revoked', source: 'fetched' } });
    expect(new Date(before.poeTime!).getTime()).toBeLessThan(new Date(before.revocation.revokedAt!).getTime());
    // The B-LTA seal's DSS said good when it was made; the fetched revocation came later than its POE.
    expect(signatureAt(ltaBefore, now, fetched).signatures[0]).toMatchObject({ indication: 'TOTAL_PASSED', revocation: { status: 'revoked' } });
    // Without the fetched answer, a B-T file holds no revocation data: the indication rests on chain and cryptography.
    expect(signatureAt(btAfter, now).signatures[0]).toMatchObject({ indication: 'TOTAL_PASSED', revocation: { status: 'unknown', source: null } });

    const after = signatureAt(btAfter, now, fetched).signatures[0]!;
    expect(after).toMatchObject({ indication: 'TOTAL_FAILED', subIndication: 'REVOKED' });
    expect(new Date(after.poeTime!).getTime()).toBeGreaterThanOrEqual(new Date(after.revocation.revokedAt!).getTime());
    expect(signatureAt(bbAfter, now, fetched).signatures[0]).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'REVOKED_NO_POE', poeTime: null });
    // Judged at a time before the revocation, the same seal is not revoked yet.
    const beforeRevocation = new Date(new Date(after.revocation.revokedAt!).getTime() - 1000);
    expect(signatureAt(bbAfter, beforeRevocation, fetched).signatures[0]).toMatchObject({ indication: 'TOTAL_PASSED', revocation: { status: 'revoked' } });

    // An answer the issuer did not sign is ignored: here its signed producedAt is moved a decade.
    const forged = Buffer.from(answer.der);
    const year = forged.indexOf(String(new Date(after.revocation.thisUpdate!).getUTCFullYear()), 0, 'latin1');
    forged[year + 2] = forged[year + 2] === 0x39 ? 0x38 : forged[year + 2]! + 1;
    expect(signatureAt(btAfter, now, { revocationData: { ocsps: [new Uint8Array(forged)], crls: [] } }).signatures[0]!.revocation.status).toBe('unknown');
  });
});
