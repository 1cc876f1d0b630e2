import { createHash, createPublicKey, verify as verifySignature, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OCSP_OID } from './ocsp-oids';

/**
 * The revocation status of a certificate as the OCSP responses and CRLs at hand say it
 * (the file's DSS, or fetched by the caller), checked synchronously with Node's crypto:
 * each answer's signature verifies with the issuer or with a responder the issuer
 * delegated to (id-kp-OCSPSigning), and it names this certificate (serial and issuer key
 * hash for OCSP; issuer name and serial for a CRL). An answer that fails a check is ignored.
 * A revoked answer wins over good ones: revocation is final.
 */

export interface RevocationItem {
  kind: 'ocsp' | 'crl';
  der: Buffer;
  source: 'dss' | 'fetched';
  /** Offset of the DSS stream in the file (-1 when fetched). */
  offset: number;
}

export interface RevocationFinding {
  status: 'good' | 'revoked' | 'unknown';
  source: 'dss' | 'fetched' | null;
  /** When the certificate was revoked (revoked only). */
  revokedAt: Date | null;
  /** thisUpdate of the answer used. */
  thisUpdate: Date | null;
  /** The answer used, for the B-LTA rule: where it sits in the file. */
  offset: number;
}

const SIGNATURE_HASH: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};
const HASH: Record<string, string> = { '1.3.14.3.2.26': 'sha1', '2.16.840.1.101.3.4.2.1': 'sha256', '2.16.840.1.101.3.4.2.2': 'sha384', '2.16.840.1.101.3.4.2.3': 'sha512' };
const MAX_ANSWERS = 64;

const UNKNOWN: RevocationFinding = { status: 'unknown', source: null, revokedAt: null, thisUpdate: null, offset: -1 };

/** Every good or revoked finding for `cert` (issued by `issuer`) among `items`; the revoked one first, else the latest good one. */
export function revocationStatus(cert: X509Certificate, issuer: X509Certificate, items: readonly RevocationItem[]): { best: RevocationFinding; good: RevocationFinding[] } {
  const findings: RevocationFinding[] = [];
  const serial = cert.serialNumber.toUpperCase().replace(/^0+/, '');
  let issuerPki: pkijs.Certificate;
  try {
    issuerPki = pkijs.Certificate.fromBER(new Uint8Array(issuer.raw));
  } catch {
    return { best: UNKNOWN, good: [] };
  }
  for (const item of items.slice(0, MAX_ANSWERS)) {
    try {
      const found = item.kind === 'ocsp' ? fromOcsp(item, serial, issuer, issuerPki) : fromCrl(item, serial, issuer, issuerPki);
      if (found) findings.push(found);
    } catch {
      // An unreadable answer proves nothing.
    }
  }
  const good = findings.filter((f) => f.status === 'good').sort((a, b) => b.thisUpdate!.getTime() - a.thisUpdate!.getTime());
  const revoked = findings.find((f) => f.status === 'revoked');
  return { best: revoked ?? good[0] ?? UNKNOWN, good };
}

function serialHex(value: asn1js.Integer): string {
  return Buffer.from(value.valueBlock.valueHexView).toString('hex').toUpperCase().replace(/^0+/, '');
}

function signedBy(tbs: ArrayBuffer | Uint8Array, signature: asn1js.BitString, algorithm: pkijs.AlgorithmIdentifier, signer: X509Certificate): boolean {
  const hash = SIGNATURE_HASH[algorithm.algorithmId];
  if (!hash) return false;
  try {
    const key = createPublicKey(signer.publicKey.export({ type: 'spki', format: 'pem' }));
    return verifySignature(hash, Buffer.from(tbs instanceof Uint8Array ? tbs : new Uint8Array(tbs)), key, Buffer.from(signature.valueBlock.valueHexView));
  } catch {
    return false;
  }
}

function fromOcsp(item: RevocationItem, serial: string, issuer: X509Certificate, issuerPki: pkijs.Certificate): RevocationFinding | null {
  const response = pkijs.OCSPResponse.fromBER(new Uint8Array(item.der));
  if (response.responseStatus.valueBlock.valueDec !== 0 || response.responseBytes?.responseType !== OCSP_OID.basic) return null;
  const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes.response.valueBlock.valueHexView);
  const responder = responderOf(basic, issuer, issuerPki);
  if (!responder || !signedBy(basic.tbsResponseData.tbsView, basic.signature, basic.signatureAlgorithm, responder)) return null;
  const issuerKey = Buffer.from(issuerPki.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  for (const single of basic.tbsResponseData.responses) {
    const hash = HASH[single.certID.hashAlgorithm.algorithmId];
    if (!hash || serialHex(single.certID.serialNumber) !== serial) continue;
    if (!createHash(hash).update(issuerKey).digest().equals(Buffer.from(single.certID.issuerKeyHash.valueBlock.valueHexView))) continue;
    const status = single.certStatus as asn1js.Constructed | asn1js.Primitive;
    const tag = status.idBlock.tagNumber;
    if (tag === 0) return { status: 'good', source: item.source, revokedAt: null, thisUpdate: single.thisUpdate, offset: item.offset };
    if (tag === 1) {
      // RevokedInfo ::= SEQUENCE { revocationTime GeneralizedTime, ... } as [1] IMPLICIT.
      const time = (status as asn1js.Constructed).valueBlock.value[0] as asn1js.GeneralizedTime | undefined;
      const revokedAt = time?.toDate?.() ?? null;
      if (!revokedAt) return null;
      return { status: 'revoked', source: item.source, revokedAt, thisUpdate: single.thisUpdate, offset: item.offset };
    }
  }
  return null;
}

/** The issuer, or a certificate in the response that the issuer gave id-kp-OCSPSigning. */
function responderOf(basic: pkijs.BasicOCSPResponse, issuer: X509Certificate, issuerPki: pkijs.Certificate): X509Certificate | null {
  const id = basic.tbsResponseData.responderID as pkijs.RelativeDistinguishedNames | asn1js.OctetString;
  const names = (c: pkijs.Certificate) =>
    id instanceof asn1js.OctetString
      ? Buffer.from(id.valueBlock.valueHexView).equals(createHash('sha1').update(c.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest())
      : c.subject.isEqual(id);
  if (names(issuerPki)) return issuer;
  for (const candidate of basic.certs ?? []) {
    if (!names(candidate)) continue;
    const eku = candidate.extensions?.find((ext) => ext.extnID === OCSP_OID.extKeyUsage)?.parsedValue as pkijs.ExtKeyUsage | undefined;
    if (!eku?.keyPurposes.includes(OCSP_OID.kpOcspSigning)) continue;
    try {
      const x509 = new X509Certificate(Buffer.from(candidate.toSchema().toBER()));
      if (x509.issuer === issuer.subject && x509.verify(issuer.publicKey)) return x509;
    } catch {
      // Not a usable responder certificate.
    }
  }
  return null;
}

function fromCrl(item: RevocationItem, serial: string, issuer: X509Certificate, issuerPki: pkijs.Certificate): RevocationFinding | null {
  const list = pkijs.CertificateRevocationList.fromBER(new Uint8Array(item.der));
  if (!list.issuer.isEqual(issuerPki.subject)) return null;
  if (!signedBy(list.tbsView, list.signatureValue, list.signatureAlgorithm, issuer)) return null;
  const entry = (list.revokedCertificates ?? []).find((r) => serialHex(r.userCertificate) === serial);
  const thisUpdate = list.thisUpdate.value;
  if (entry) return { status: 'revoked', source: item.source, revokedAt: entry.revocationDate.value, thisUpdate, offset: item.offset };
  return { status: 'good', source: item.source, revokedAt: null, thisUpdate, offset: item.offset };
}
