import { constants, createHash, createPublicKey, verify as verifySignature, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from './oids';

/**
 * The checks of one CMS SignerInfo, shared by the PDF signature and its RFC 3161 token:
 * verification is the mirror of `createCadesSignature`. Node's crypto verifies (native,
 * synchronous: this runs on a worker thread); pkijs only parses.
 */

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
const RSA_PSS = '1.2.840.113549.1.1.10';
const SIGNING_CERTIFICATE_V1 = '1.2.840.113549.1.9.16.2.12';

export interface CertificateFacts {
  subject: string;
  /** The subject's common name, or the whole subject without one. */
  commonName: string;
  issuer: string;
  /** Upper-case hex, as openssl prints it. */
  serial: string;
  notBefore: string;
  notAfter: string;
  selfSigned: boolean;
  /** SHA-256 of the certificate's DER (hex): how a caller recognises its own certificate. */
  sha256: string;
}

export interface SignerCheck {
  /** The digest of `content` equals the signed messageDigest attribute. */
  integrity: boolean;
  /** The signature over the signed attributes verifies with the signer certificate. */
  signatureValid: boolean;
  /** ESS signing-certificate(-v2) names the signer certificate; null when the attribute is absent. */
  essCertificateMatches: boolean | null;
  certificate: CertificateFacts | null;
  signerInfo: pkijs.SignerInfo;
  signedData: pkijs.SignedData;
  problems: string[];
}

export class CmsFormatError extends Error {}

/** Parses a DER ContentInfo holding SignedData with one signer, or throws CmsFormatError. */
export function parseSignedData(der: Uint8Array): pkijs.SignedData {
  const asn1 = asn1js.fromBER(new Uint8Array(der));
  if (asn1.offset === -1) throw new CmsFormatError('the signature is not DER-encoded CMS');
  try {
    const info = new pkijs.ContentInfo({ schema: asn1.result });
    if (info.contentType !== OID.signedData) throw new CmsFormatError('the CMS is not SignedData');
    const signed = new pkijs.SignedData({ schema: info.content });
    if (signed.signerInfos.length !== 1) throw new CmsFormatError(`the CMS has ${signed.signerInfos.length} signers, not one`);
    return signed;
  } catch (err) {
    if (err instanceof CmsFormatError) throw err;
    throw new CmsFormatError(`the CMS cannot be read: ${String((err as Error)?.message ?? err).split('\n')[0]}`);
  }
}

export function checkSigner(signed: pkijs.SignedData, content: Uint8Array): SignerCheck {
  const signerInfo = signed.signerInfos[0]!;
  const problems: string[] = [];
  const hash = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  const cert = findSignerCertificate(signed, signerInfo);
  const x509 = cert ? tryX509(cert) : null;
  if (!x509) problems.push('the signer certificate is not in the signature');
  const attrs = signerInfo.signedAttrs?.attributes ?? [];

  let integrity = false;
  const digestAttr = attrs.find((a) => a.type === OID.messageDigest)?.values[0];
  if (!hash) problems.push(`unsupported digest algorithm ${signerInfo.digestAlgorithm.algorithmId}`);
  else if (!(digestAttr instanceof asn1js.OctetString)) problems.push('the signature has no messageDigest attribute');
  else {
    integrity = createHash(hash).update(content).digest().equals(Buffer.from(digestAttr.valueBlock.valueHexView));
    if (!integrity) problems.push('the signed bytes were changed: their digest differs from the signed messageDigest');
  }

  let signatureValid = false;
  if (x509 && hash && signerInfo.signedAttrs) {
    // The signature covers the attributes DER-encoded as a SET (tag 0x31), not as [0].
    const signedBytes = Buffer.from(signerInfo.signedAttrs.encodedValue);
    signedBytes[0] = 0x31;
    const signature = Buffer.from(signerInfo.signature.valueBlock.valueHexView);
    try {
      const key = createPublicKey(x509.publicKey.export({ type: 'spki', format: 'pem' }));
      const pss = signerInfo.signatureAlgorithm.algorithmId === RSA_PSS;
      signatureValid = verifySignature(hash, signedBytes, pss ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO } : key, signature);
    } catch {
      signatureValid = false;
    }
    if (!signatureValid) problems.push('the cryptographic signature does not verify with the signer certificate');
  } else if (!signerInfo.signedAttrs) {
    problems.push('the signature has no signed attributes');
  }

  const essCertificateMatches = cert ? essMatches(attrs, cert) : null;
  if (essCertificateMatches === false) problems.push('the signing-certificate attribute names another certificate');
  return { integrity, signatureValid, essCertificateMatches, certificate: x509 && cert ? certificateFacts(x509) : null, signerInfo, signedData: signed, problems };
}

function findSignerCertificate(signed: pkijs.SignedData, signer: pkijs.SignerInfo): pkijs.Certificate | null {
  const certs = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const sid = signer.sid as pkijs.IssuerAndSerialNumber | asn1js.Constructed;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certs.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber)) ?? null;
  }
  // [0] SubjectKeyIdentifier
  const ski = Buffer.from((sid as asn1js.Constructed).valueBlock.value?.[0]?.valueBeforeDecodeView ?? new Uint8Array());
  return (
    certs.find((c) => {
      const ext = c.extensions?.find((e) => e.extnID === '2.5.29.14');
      return ext ? Buffer.from(ext.extnValue.valueBlock.valueHexView).subarray(2).equals(ski.subarray(2)) : false;
    }) ?? null
  );
}

function tryX509(cert: pkijs.Certificate): X509Certificate | null {
  try {
    return new X509Certificate(Buffer.from(cert.toSchema().toBER()));
  } catch {
    return null;
  }
}

function essMatches(attrs: pkijs.Attribute[], cert: pkijs.Certificate): boolean | null {
  const der = Buffer.from(cert.toSchema().toBER());
  for (const [type, defaultHash] of [
    [OID.signingCertificateV2, 'sha256'],
    [SIGNING_CERTIFICATE_V1, 'sha1'],
  ] as const) {
    const value = attrs.find((a) => a.type === type)?.values[0];
    if (!value) continue;
    // SigningCertificate(V2) ::= SEQUENCE { certs SEQUENCE OF ESSCertID(v2), ... }
    const first = ((value as asn1js.Sequence).valueBlock?.value?.[0] as asn1js.Sequence | undefined)?.valueBlock?.value?.[0] as asn1js.Sequence | undefined;
    const parts = first?.valueBlock?.value ?? [];
    const algorithm = parts[0] instanceof asn1js.Sequence ? (parts[0].valueBlock.value[0] as asn1js.ObjectIdentifier | undefined)?.valueBlock.toString() : undefined;
    const hashValue = parts.find((p) => p instanceof asn1js.OctetString) as asn1js.OctetString | undefined;
    const hash = algorithm ? DIGESTS[algorithm] : defaultHash;
    if (!hashValue || !hash) return false;
    return createHash(hash).update(der).digest().equals(Buffer.from(hashValue.valueBlock.valueHexView));
  }
  return null;
}

function certificateFacts(x509: X509Certificate): CertificateFacts {
  const cn = /(?:^|\n)CN=([^\n]*)/.exec(x509.subject)?.[1];
  let selfSigned = false;
  try {
    // checkIssued also wants keyCertSign, which a signing-only certificate lacks.
    selfSigned = x509.subject === x509.issuer && x509.verify(x509.publicKey);
  } catch {
    selfSigned = false;
  }
  return {
    subject: x509.subject.split('\n').join(', '),
    commonName: cn ?? x509.subject.split('\n').join(', '),
    issuer: x509.issuer.split('\n').join(', '),
    serial: x509.serialNumber.toUpperCase(),
    notBefore: new Date(x509.validFrom).toISOString(),
    notAfter: new Date(x509.validTo).toISOString(),
    selfSigned,
    sha256: createHash('sha256').update(x509.raw).digest('hex'),
  };
}

export interface TimestampCheck {
  time: string | null;
  /** The token's imprint is the hash of the signature value, and the token's own signature verifies. */
  valid: boolean;
  problems: string[];
  /** The token and its signer (the TSA) certificate's SHA-256, when the token could be read: for judging the TSA's chain. */
  token?: pkijs.SignedData;
  tsaSha256?: string | null;
}

/** An RFC 3161 signature-timestamp token (unsigned attribute) against the signature value it stamps. */
export function checkTimestamp(signerInfo: pkijs.SignerInfo): TimestampCheck | null {
  const attr = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken);
  if (!attr?.values[0]) return null;
  const problems: string[] = [];
  let token: pkijs.SignedData;
  try {
    token = parseSignedData(new Uint8Array((attr.values[0] as asn1js.BaseBlock).toBER()));
  } catch (err) {
    return { time: null, valid: false, problems: [`the timestamp token cannot be read: ${(err as Error).message}`] };
  }
  const eContent = token.encapContentInfo.eContent;
  if (token.encapContentInfo.eContentType !== OID.tstInfo || !eContent) return { time: null, valid: false, problems: ['the timestamp token holds no TSTInfo'] };
  const tstDer = octets(eContent);
  let tst: pkijs.TSTInfo;
  try {
    tst = pkijs.TSTInfo.fromBER(tstDer);
  } catch {
    return { time: null, valid: false, problems: ['the timestamp token holds an unreadable TSTInfo'] };
  }
  const imprintHash = DIGESTS[tst.messageImprint.hashAlgorithm.algorithmId];
  const signatureValue = Buffer.from(signerInfo.signature.valueBlock.valueHexView);
  const imprintOk =
    Boolean(imprintHash) && createHash(imprintHash!).update(signatureValue).digest().equals(Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView));
  if (!imprintOk) problems.push('the timestamp covers another signature value');
  const signer = checkSigner(token, tstDer);
  problems.push(...signer.problems.map((p) => `timestamp: ${p}`));
  return {
    time: tst.genTime.toISOString(),
    valid: imprintOk && signer.integrity && signer.signatureValid && signer.essCertificateMatches !== false,
    problems,
    token,
    tsaSha256: signer.certificate?.sha256 ?? null,
  };
}

function octets(value: asn1js.OctetString): Buffer {
  if (value.idBlock.isConstructed) return Buffer.concat((value.valueBlock.value as asn1js.OctetString[]).map((part) => octets(part)));
  return Buffer.from(value.valueBlock.valueHexView);
}

/**
 * A document timestamp (/SubFilter /ETSI.RFC3161): the /Contents is an RFC 3161 token whose
 * imprint is the hash of the signed byte ranges, and whose own signature must verify.
 */
export function checkDocumentTimestamp(token: pkijs.SignedData, content: Uint8Array): TimestampCheck & { imprintMatches: boolean; signer: SignerCheck | null } {
  const eContent = token.encapContentInfo.eContent;
  if (token.encapContentInfo.eContentType !== OID.tstInfo || !eContent) return { time: null, valid: false, imprintMatches: false, problems: ['the document timestamp holds no TSTInfo'], signer: null };
  const tstDer = octets(eContent);
  let tst: pkijs.TSTInfo;
  try {
    tst = pkijs.TSTInfo.fromBER(tstDer);
  } catch {
    return { time: null, valid: false, imprintMatches: false, problems: ['the document timestamp holds an unreadable TSTInfo'], signer: null };
  }
  const problems: string[] = [];
  const imprintHash = DIGESTS[tst.messageImprint.hashAlgorithm.algorithmId];
  const imprintOk = Boolean(imprintHash) && createHash(imprintHash!).update(content).digest().equals(Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView));
  if (!imprintOk) problems.push('the signed bytes were changed: their digest differs from the document timestamp’s imprint');
  const signer = checkSigner(token, tstDer);
  problems.push(...signer.problems);
  return { time: tst.genTime.toISOString(), valid: imprintOk && signer.integrity && signer.signatureValid && signer.essCertificateMatches !== false, imprintMatches: imprintOk, problems, signer };
}
