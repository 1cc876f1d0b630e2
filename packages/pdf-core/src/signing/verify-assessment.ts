import { createHash, X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';

/**
 * What a validator in the terms of ETSI EN 319 102-1 concludes about each signature: the
 * PAdES level the whole file reaches for it (ETSI EN 319 142-1: B-B, B-T with a signature
 * timestamp, B-LT with a later DSS holding validation data, B-LTA with a document timestamp
 * over that DSS) and an indication with its sub-indication. Revocation and certificate
 * validity at a time are judged after this (verify-over-time.ts) on what passes here.
 */

/** What the assessment reads of a verified signature (verify.ts `AssessedSignature`, which carries more). */
export interface AssessedSignature {
  kind: 'signature' | 'document-timestamp';
  level: 'B-B' | 'B-T' | null;
  byteRange: number[] | null;
  coversDocument: boolean;
  integrity: boolean;
  certificate: unknown;
  signatureValid: boolean;
  timestampValid: boolean | null;
  essCertificateMatches: boolean;
  chainTrusted: boolean;
  passed: boolean;
}

export type Indication = 'TOTAL_PASSED' | 'INDETERMINATE' | 'TOTAL_FAILED';
export type SubIndication =
  | 'HASH_FAILURE'
  | 'SIG_CRYPTO_FAILURE'
  | 'FORMAT_FAILURE'
  | 'NO_SIGNING_CERTIFICATE_FOUND'
  | 'NO_CERTIFICATE_CHAIN_FOUND'
  | 'REVOKED'
  | 'REVOKED_NO_POE'
  | 'OUT_OF_BOUNDS_NO_POE'
  | 'NOT_YET_VALID';
export type DetectedLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

/** Longest issuer chain followed from a signer certificate to an anchor. */
const MAX_CHAIN = 8;
/** DSS dictionaries looked at, and the characters read either side of each one's /Type. */
const MAX_DSS_DICTIONARIES = 256;
const DSS_WINDOW = 2048;

/**
 * True when the signer certificate (by SHA-256 of its DER) is an anchor or chains to one
 * through the certificates carried in the CMS, each issuer's signature verifying.
 */
export function chainReachesAnchor(signed: pkijs.SignedData, signerSha256: string, anchors: readonly X509Certificate[]): boolean {
  const pool: X509Certificate[] = [];
  for (const c of signed.certificates ?? []) {
    if (!(c instanceof pkijs.Certificate)) continue;
    try {
      pool.push(new X509Certificate(Buffer.from(c.toSchema().toBER())));
    } catch {
      // An unreadable extra certificate cannot be a link of the chain.
    }
  }
  let current = pool.find((c) => createHash('sha256').update(c.raw).digest('hex') === signerSha256);
  const seen = new Set<X509Certificate>();
  for (let depth = 0; current && depth < MAX_CHAIN; depth++) {
    const cert: X509Certificate = current;
    if (anchors.some((a) => a.raw.equals(cert.raw) || issues(a, cert))) return true;
    seen.add(cert);
    current = pool.find((c) => !seen.has(c) && issues(c, cert));
  }
  return false;
}

function issues(issuer: X509Certificate, cert: X509Certificate): boolean {
  try {
    return cert.issuer === issuer.subject && cert.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/** Parses the anchors (DER); the service checked each one when it read its configuration. */
export function anchorCertificates(ders: readonly Uint8Array[] | undefined): X509Certificate[] {
  return (ders ?? []).map((der) => new X509Certificate(Buffer.from(der)));
}

/** ETSI EN 319 102-1 §5.1.3 indication of one signature or document timestamp. */
export function indicationOf(s: AssessedSignature): { indication: Indication; subIndication: SubIndication | null } {
  if (!s.byteRange || !s.coversDocument) return { indication: 'TOTAL_FAILED', subIndication: s.integrity ? 'FORMAT_FAILURE' : 'HASH_FAILURE' };
  if (!s.integrity) return { indication: 'TOTAL_FAILED', subIndication: s.certificate ? 'HASH_FAILURE' : 'FORMAT_FAILURE' };
  if (!s.signatureValid || s.timestampValid === false) return { indication: 'TOTAL_FAILED', subIndication: 'SIG_CRYPTO_FAILURE' };
  if (!s.essCertificateMatches) return { indication: 'INDETERMINATE', subIndication: 'NO_SIGNING_CERTIFICATE_FOUND' };
  if (!s.chainTrusted) return { indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND' };
  return { indication: 'TOTAL_PASSED', subIndication: null };
}

/**
 * The level each signature reaches in the file: B-LT when a DSS holding certificates, OCSP
 * responses or CRLs was written after it (a later revision), B-LTA when a valid document
 * timestamp then covers that DSS. Document timestamps have no level (null).
 */
export function detectLevels(text: string, signatures: readonly AssessedSignature[]): Array<DetectedLevel | null> {
  const dssOffsets: number[] = [];
  const dssType = /\/Type\s*\/DSS\b/g;
  // A DSS is rewritten once per revision; a hostile file repeating the name costs at most this many windows.
  for (let m = dssType.exec(text), seen = 0; m && seen < MAX_DSS_DICTIONARIES; m = dssType.exec(text), seen++) {
    // The entries of the dictionary around the match, within a bounded window either side.
    const window = text.slice(Math.max(0, m.index - DSS_WINDOW), m.index + DSS_WINDOW);
    if (/\/(Certs|OCSPs|CRLs)\s*\[/.test(window)) dssOffsets.push(m.index);
  }
  const end = (s: AssessedSignature) => (s.byteRange && s.byteRange.length === 4 ? s.byteRange[2]! + s.byteRange[3]! : -1);
  const stampEnds = signatures.filter((s) => s.kind === 'document-timestamp' && s.passed).map(end);
  return signatures.map((s) => {
    if (s.kind === 'document-timestamp' || s.level === null) return null;
    if (s.level === 'B-B') return 'B-B';
    const signedTo = end(s);
    const dss = dssOffsets.filter((offset) => offset > signedTo);
    if (dss.length === 0) return 'B-T';
    return stampEnds.some((stampEnd) => dss.some((offset) => offset < stampEnd)) ? 'B-LTA' : 'B-LT';
  });
}
