/** Object identifiers of OCSP (RFC 6960), certificate extensions and RFC 3161 document timestamps. */
export const OCSP_OID = {
  basic: '1.3.6.1.5.5.7.48.1.1',
  nonce: '1.3.6.1.5.5.7.48.1.2',
  noCheck: '1.3.6.1.5.5.7.48.1.5',
  accessOcsp: '1.3.6.1.5.5.7.48.1',
  accessCaIssuers: '1.3.6.1.5.5.7.48.2',
  kpOcspSigning: '1.3.6.1.5.5.7.3.9',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  crlDistributionPoints: '2.5.29.31',
  extKeyUsage: '2.5.29.37',
  sha1: '1.3.14.3.2.26',
} as const;
