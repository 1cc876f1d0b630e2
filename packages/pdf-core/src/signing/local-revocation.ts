import * as pkijs from 'pkijs';
import { pkijsEngine } from './crypto-engine';
import type { SigningIdentity } from './identity';
import { answerOcspRequest, serialHexOf } from './local-pki-responder';
import type { RevocationClient } from './revocation-client';

/** How long the local root's OCSP answers and CRL are good for (their nextUpdate). */
export const LOCAL_REVOCATION_VALIDITY_MS = 24 * 60 * 60 * 1000;

/** The local root's answer for a serial: the seal certificate in use is good; any other it never issued as far as it knows. */
export function localStatusOf(identity: SigningIdentity) {
  const current = serialHexOf(identity.certificate.serialNumber);
  return (serial: string) => (serial === current ? ({ status: 'good' } as const) : ({ status: 'unknown' } as const));
}

/**
 * Revocation data for the service's own chain made in-process (the same answer its
 * /pki/ocsp endpoint gives, without a round trip through the public URL); certificates of
 * any other issuer go to `inner`.
 */
export function withLocalRevocation(identity: SigningIdentity, inner: RevocationClient, clock: () => Date = () => new Date()): RevocationClient {
  const root = identity.localRoot;
  if (!root) return inner;
  const rootDer = root.certificateDer;
  const statusOf = localStatusOf(identity);
  const local = async (cert: pkijs.Certificate, issuer: pkijs.Certificate) => {
    const request = new pkijs.OCSPRequest();
    await request.createForCertificate(cert, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer }, pkijsEngine());
    const der = await answerOcspRequest(Buffer.from(request.toSchema(true).toBER()), { root, statusOf, now: clock(), validityMs: LOCAL_REVOCATION_VALIDITY_MS });
    return { kind: 'ocsp' as const, der, responderCerts: [] };
  };
  const ours = (issuer: pkijs.Certificate) => Buffer.from(issuer.toSchema().toBER()).equals(rootDer);
  return {
    async evidenceFor(cert, issuer) {
      return ours(issuer) ? local(cert, issuer) : inner.evidenceFor(cert, issuer);
    },
    // The local root never revokes: its answer is good for the certificate in use, unknown for others.
    answerFor: inner.answerFor && (async (cert, issuer) => (ours(issuer) ? { ...(await local(cert, issuer)), revoked: false } : inner.answerFor!(cert, issuer))),
  };
}
