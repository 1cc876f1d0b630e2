import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadPkcs12, type SigningIdentity } from './identity';
import { sealPdf, type SealOptions } from './pades';
import { createRevocationClient } from './revocation-client';
import { createTsaClient, type TsaClient } from './tsa-client';
import { verifyPdfSignatures, type PdfVerification, type VerifyPdfOptions } from './verify';
import { fetchRevocationData } from './verify-fetch';
import { startOpensslPki, type OpensslPki } from './__tests__/openssl-pki';
import { startOpensslTsa, type OpensslTsa } from './__tests__/openssl-tsa';
import { samplePdf, untilClockPasses } from './__tests__/over-time-fixtures';

/**
 * Revocation judged along the whole chains, against a real PKI (root → intermediate → seal,
 * and a TSA) whose `openssl ocsp` responders answer for what each CA issued: the
 * intermediate CA revoked by the root, or the TSA certificate revoked, after sealing.
 */
async function setUp(options: Parameters<typeof startOpensslPki>[0]) {
  const pki = await startOpensslPki(options);
  const tsaServer = await startOpensslTsa({ ...pki.tsa, caFile: pki.root });
  const tsa: TsaClient = createTsaClient({ url: tsaServer.url });
  const identity: SigningIdentity = await loadPkcs12(readFileSync(pki.seal.p12), 'test');
  const anchors: VerifyPdfOptions = { trustAnchors: [new X509Certificate(readFileSync(pki.root)).raw] };
  const revocation = createRevocationClient({ timeoutMs: 5_000 });
  const seal = async (level: NonNullable<SealOptions['level']>) =>
    (await sealPdf(await samplePdf(), { identity, tsa: level === 'B-B' ? undefined : tsa, level, revocation, signingTime: new Date(), reason: 'Archivo', fieldName: 'sello' })).pdf;
  /** What a verifier does (esign's verify-file): judge, fetch an answer for every certificate without one, judge again. */
  const verifyFetching = async (pdf: Buffer, validationTime: Date, extra: Partial<VerifyPdfOptions> = {}): Promise<PdfVerification> => {
    const first = verifyPdfSignatures(pdf, { ...anchors, validationTime, ...extra });
    const fetched = await fetchRevocationData(first, revocation);
    return fetched ? verifyPdfSignatures(pdf, { ...anchors, validationTime, ...extra, revocationData: fetched }) : first;
  };
  const close = async () => {
    await tsaServer.close();
    await pki.close();
  };
  return { pki, anchors, seal, verifyFetching, close };
}

const stampTimes = (pdf: Buffer) => verifyPdfSignatures(pdf).signatures.map((s) => new Date(s.timestampTime!).getTime());

describe('revocation of the intermediate CA and of the TSA', () => {
  describe('the intermediate CA revoked by the root (the TSA sits under the root)', () => {
    let env: Awaited<ReturnType<typeof setUp>>;
    beforeAll(async () => {
      env = await setUp({ tsaIssuer: 'root' });
    }, 60_000);
    afterAll(async () => env?.close());

    it('seals proven before the revocation pass; a seal made after it fails REVOKED; the report names the intermediate', async () => {
      const lta = await env.seal('B-LTA');
      const btBefore = await env.seal('B-T');

      // The B-LTA file's DSS answers for every certificate of both chains; the B-T file has none.
      const fresh = verifyPdfSignatures(lta, { ...env.anchors, validationTime: new Date() }).signatures[0]!;
      expect(fresh.chainRevocation.map((r) => [r.chain, r.depth, r.status, r.source])).toEqual([
        ['signer', 0, 'good', 'dss'],
        ['signer', 1, 'good', 'dss'],
        ['signature-timestamp', 0, 'good', 'dss'],
      ]);
      expect(fresh.chainRevocation[1]!.subject).toContain('Test PKI Intermediate');
      expect(fresh.chainRevocation[2]!.subject).toContain('Test PKI TSA');
      const bare = verifyPdfSignatures(btBefore, { ...env.anchors, validationTime: new Date() }).signatures[0]!;
      expect(bare.chainRevocation.map((r) => r.status)).toEqual(['unknown', 'unknown', 'unknown']);
      expect(bare.revocationLookups).toHaveLength(3);

      await untilClockPasses(new Date(Math.max(...stampTimes(lta), ...stampTimes(btBefore))));
      await env.pki.revokeByRoot(env.pki.intermediate);
      const btAfter = await env.seal('B-T');
      const now = new Date(Date.now() + 60_000);

      const before = (await env.verifyFetching(btBefore, now)).signatures[0]!;
      expect(before).toMatchObject({ indication: 'TOTAL_PASSED', subIndication: null, revocation: { status: 'good', source: 'fetched' } });
      const intermediate = before.chainRevocation.find((r) => r.chain === 'signer' && r.depth === 1)!;
      expect(intermediate).toMatchObject({ status: 'revoked', source: 'fetched' });
      expect(new Date(before.poeTime!).getTime()).toBeLessThan(new Date(intermediate.revokedAt!).getTime());

      const after = (await env.verifyFetching(btAfter, now)).signatures[0]!;
      expect(after).toMatchObject({ indication: 'TOTAL_FAILED', subIndication: 'REVOKED', revocation: { status: 'good' } });
      expect(after.chainRevocation.find((r) => r.depth === 1)).toMatchObject({ chain: 'signer', status: 'revoked' });
      expect(after.chainRevocation.find((r) => r.chain === 'signature-timestamp')).toMatchObject({ status: 'good' });

      // The B-LTA seal: its DSS said good when it was made, and the revocation came after its POE.
      const fetchedRevocation = await fetchRevocationData(verifyPdfSignatures(btAfter, { ...env.anchors, validationTime: now }), createRevocationClient({ timeoutMs: 5_000 }));
      const archived = verifyPdfSignatures(lta, { ...env.anchors, validationTime: now, revocationData: fetchedRevocation! }).signatures[0]!;
      expect(archived).toMatchObject({ indication: 'TOTAL_PASSED', detectedLevel: 'B-LTA' });
      expect(archived.chainRevocation.find((r) => r.depth === 1)).toMatchObject({ status: 'revoked' });
      // A B-B seal has no timestamp: with its intermediate revoked, nothing proves it came first.
      const bb = await env.seal('B-B');
      expect((await env.verifyFetching(bb, now)).signatures[0]).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'REVOKED_NO_POE', poeTime: null });
    });
  });

  describe('the TSA certificate revoked by the intermediate', () => {
    let env: Awaited<ReturnType<typeof setUp>>;
    beforeAll(async () => {
      env = await setUp({});
    }, 60_000);
    afterAll(async () => env?.close());

    it('a timestamp made after its TSA was revoked proves nothing: that B-T seal is INDETERMINATE, an earlier one still passes', async () => {
      const btBefore = await env.seal('B-T');
      await untilClockPasses(new Date(Math.max(...stampTimes(btBefore))));
      await env.pki.revokeByIntermediate(env.pki.tsa.cert);
      const btAfter = await env.seal('B-T');
      const now = new Date(Date.now() + 60_000);

      const before = (await env.verifyFetching(btBefore, now)).signatures[0]!;
      expect(before).toMatchObject({ indication: 'TOTAL_PASSED', poeTime: before.timestampTime });
      const tsaBefore = before.chainRevocation.find((r) => r.chain === 'signature-timestamp' && r.depth === 0)!;
      expect(tsaBefore).toMatchObject({ status: 'revoked', source: 'fetched' });
      expect(new Date(before.timestampTime!).getTime()).toBeLessThan(new Date(tsaBefore.revokedAt!).getTime());

      const after = (await env.verifyFetching(btAfter, now)).signatures[0]!;
      // The token itself verifies; its TSA was revoked before it was made.
      expect(after).toMatchObject({ timestampValid: true, indication: 'INDETERMINATE', subIndication: 'REVOKED_NO_POE', poeTime: null, revocation: { status: 'good' } });
      expect(after.chainRevocation.find((r) => r.chain === 'signature-timestamp' && r.depth === 0)).toMatchObject({ status: 'revoked' });
      // Without revocation data at hand, nothing says the TSA was revoked.
      expect(verifyPdfSignatures(btAfter, { ...env.anchors, validationTime: now }).signatures[0]).toMatchObject({ indication: 'TOTAL_PASSED' });
    });
  });
});
