import {
  answerOcspRequest,
  issueLocalCrl,
  localStatusOf,
  LOCAL_REVOCATION_VALIDITY_MS,
  ocspErrorResponse,
  OcspRequestError,
  type SigningIdentity,
} from '@firma-riesgo/pdf-core';

/**
 * The service's own PKI when its identity is self-signed (a local root kept with it): the
 * root certificate, its CRL and its OCSP answers, which the seal certificate names in its AIA
 * and CRL distribution point. Null with an operator's PKCS#12: its issuer answers for it.
 */
export function createLocalPki(identity: SigningIdentity, clock: () => Date) {
  const root = identity.localRoot;
  if (!root) return null;
  const statusOf = localStatusOf(identity);
  let crl: { der: Buffer; at: number } | undefined;
  return {
    rootDer: root.certificateDer,
    /** An RFC 6960 response to a DER request; a request it cannot read gets malformedRequest (1), as the RFC wants. */
    async ocsp(request: Buffer): Promise<Buffer> {
      try {
        return await answerOcspRequest(request, { root, statusOf, now: clock(), validityMs: LOCAL_REVOCATION_VALIDITY_MS });
      } catch (err) {
        if (err instanceof OcspRequestError) return ocspErrorResponse(1);
        throw err;
      }
    },
    /** The root's CRL (nothing revoked), signed again once half its validity has passed. */
    async crl(): Promise<Buffer> {
      const now = clock().getTime();
      if (!crl || now - crl.at > LOCAL_REVOCATION_VALIDITY_MS / 2 || now < crl.at) {
        crl = { der: await issueLocalCrl({ root, revoked: [], now: new Date(now), validityMs: LOCAL_REVOCATION_VALIDITY_MS }), at: now };
      }
      return crl.der;
    },
  };
}

export type LocalPki = NonNullable<ReturnType<typeof createLocalPki>>;
