import { createHash, X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';
import { anchorCertificates, chainReachesAnchor, detectLevels, indicationOf, type DetectedLevel, type Indication, type SubIndication } from './verify-assessment';
import { checkDocumentTimestamp, checkSigner, checkTimestamp, CmsFormatError, parseSignedData, type CertificateFacts } from './verify-cms';

import { readDssItems } from './verify-dss';
import { judgeOverTime, type DocumentTimestampProof } from './verify-over-time';
import { type RevocationItem } from './verify-revocation';
import { earliestRevocation, judgeChain, type ChainLink, type ChainMemo } from './verify-chain-revocation';
import { endOfContent, endsRevision, fieldNamesByReference, findSignatureDictionaries, pdfDate, pdfString, type SignatureDictionary } from './pdf-text-scan';

export type { CertificateFacts } from './verify-cms';
export type { DetectedLevel, Indication, SubIndication } from './verify-assessment';

/**
 * Verifies the PAdES signatures of any PDF, the mirror of `sealPdf`: per signature
 * dictionary its byte ranges, the CMS (messageDigest, the signature, ESS
 * signing-certificate-v2) and its RFC 3161 token. Reads the file as bytes, never through a
 * PDF parser: signature dictionaries are plain objects (their /Contents must sit in the
 * file for the byte ranges to leave it out), and a hostile file then costs a linear scan.
 * Synchronous and CPU-bound: callers run it on a worker thread (`verify-pdf` op).
 */

export interface SignatureVerification {
  /** The signature field's /T, or null when no field points at this signature. */
  field: string | null;
  /** The /Name of the signature dictionary, else the certificate's common name. */
  signer: string | null;
  /** /M of the signature dictionary (ISO), as the signer claims it. */
  signingTime: string | null;
  /** genTime of the RFC 3161 signature timestamp, or null (B-B). */
  timestampTime: string | null;
  /** A signature's level as its CMS shows it (B-B or B-T); null for a document timestamp. */
  level: 'B-B' | 'B-T' | null;
  /** A signature, or a document timestamp (/SubFilter /ETSI.RFC3161, PAdES B-LTA's archive timestamp). */
  kind: 'signature' | 'document-timestamp';
  byteRange: number[] | null;
  integrity: boolean;
  signatureValid: boolean;
  /** From the first byte to the end of a revision (%%EOF), with one gap: exactly this /Contents. */
  coversDocument: boolean;
  essCertificateMatches: boolean;
  /** null without a timestamp. */
  timestampValid: boolean | null;
  certificate: CertificateFacts | null;
  /** Plain-English reasons for every check that failed. */
  problems: string[];
  passed: boolean;
  /** The signer certificate is a trust anchor or chains to one through the CMS certificates. */
  chainTrusted: boolean;
  /** The level the whole file reaches for this signature (a DSS and a document timestamp after it count); null for a document timestamp. */
  detectedLevel: DetectedLevel | null;
  /** ETSI EN 319 102-1 indication, and its sub-indication unless TOTAL_PASSED. */
  indication: Indication;
  subIndication: SubIndication | null;
  /** The signing (or TSA) certificate's revocation status from the file's DSS or the data passed in. */
  revocation: RevocationReport;
  /**
   * The revocation status of every certificate that is not a trust anchor, of the signer's
   * chain (for a document timestamp: its TSA's) and of the signature timestamp's TSA chain;
   * only for chains that reach an anchor. Empty otherwise.
   */
  chainRevocation: CertificateRevocation[];
  /** The best proof of existence used at the validation time (ISO): the earliest valid timestamp covering it; null without one. */
  poeTime: string | null;
  /**
   * With no revocation data at hand for a certificate whose chain reaches an anchor: the
   * certificate and its issuer (DER), for a caller to fetch an answer for and verify again
   * with `revocationData`. Null otherwise.
   */
  revocationLookup: { certificate: Uint8Array; issuer: Uint8Array } | null;
  /** Every certificate of those chains (the signer's first) with no answer at hand, and its issuer: what a caller fetches. */
  revocationLookups: Array<{ certificate: Uint8Array; issuer: Uint8Array }>;
}

export interface CertificateRevocation extends RevocationReport {
  /** `signer`: the signature's own chain (a document timestamp's is its TSA's); `signature-timestamp`: the TSA chain of its signature timestamp. */
  chain: 'signer' | 'signature-timestamp';
  /** 0: the end-entity certificate (signer or TSA); 1: the CA that issued it; and so on. */
  depth: number;
  subject: string;
  serial: string;
  sha256: string;
}

export interface RevocationReport {
  status: 'good' | 'revoked' | 'unknown';
  /** Where the answer came from: the file's DSS, or fetched by the caller (`revocationData`); null when unknown. */
  source: 'dss' | 'fetched' | null;
  /** Revocation time (ISO), when revoked. */
  revokedAt: string | null;
  /** thisUpdate of the OCSP response or CRL used (ISO). */
  thisUpdate: string | null;
}

export interface PdfVerification {
  /** The time the signatures were judged at (ISO): `validationTime`, else now. */
  validationTime: string;
  fileSha256: string;
  signatures: SignatureVerification[];
  /** Bytes (an incremental update) after the last signature's byte range. */
  modifiedAfterLastSignature: boolean;
  /** At least one signature, every one passed, nothing after the last one. */
  valid: boolean;
  /** Problems of the file as a whole (not of one signature). */
  problems: string[];
}

export interface VerifyPdfOptions {
  /** Signature dictionaries read at most; a file with more is reported, not verified past it. */
  maxSignatures?: number;
  /** Largest /Contents (bytes of CMS) read; beyond it the signature is reported unreadable. */
  maxContentsBytes?: number;
  /** DER certificates a signer's chain must reach for TOTAL_PASSED (none: every signature is INDETERMINATE). */
  trustAnchors?: Uint8Array[];
  /** The time to judge at (certificate expiry, revocation); default now. */
  validationTime?: Date;
  /** OCSP responses and CRLs (DER) the caller fetched, besides those in the file's DSS. */
  revocationData?: { ocsps: Uint8Array[]; crls: Uint8Array[] };
}

export const DEFAULT_MAX_SIGNATURES = 50;
export const DEFAULT_MAX_CONTENTS_BYTES = 512 * 1024;

export function verifyPdfSignatures(input: Uint8Array, options: VerifyPdfOptions = {}): PdfVerification {
  const pdf = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const maxSignatures = options.maxSignatures ?? DEFAULT_MAX_SIGNATURES;
  const text = pdf.toString('latin1');
  const problems: string[] = [];
  if (/\/Encrypt\s/.test(text.slice(Math.max(0, text.length - 4096)))) problems.push('the file is encrypted; its signatures are checked as stored');

  const dicts = findSignatureDictionaries(text, maxSignatures + 1);
  if (dicts.length > maxSignatures) problems.push(`the file has more than ${maxSignatures} signatures; only the first ${maxSignatures} were checked`);
  const fields = fieldNamesByReference(text);
  const anchors = anchorCertificates(options.trustAnchors);
  const checked = dicts.slice(0, maxSignatures).map((dict) => verifyOne(pdf, text, dict, fields, options.maxContentsBytes ?? DEFAULT_MAX_CONTENTS_BYTES, anchors));
  const signatures = checked.map((c) => c.result);
  const levels = detectLevels(text, signatures);
  signatures.forEach((s, i) => {
    s.detectedLevel = levels[i] ?? null;
    const { indication, subIndication } = indicationOf(s);
    s.indication = indication;
    s.subIndication = subIndication;
  });
  const validationTime = options.validationTime ?? new Date();
  judgeAtTime(pdf, text, checked, validationTime, options.revocationData, anchors);

  const ends = signatures.map((s) => (s.byteRange && s.byteRange.length === 4 ? s.byteRange[2]! + s.byteRange[3]! : -1));
  const lastEnd = Math.max(-1, ...ends);
  const modifiedAfterLastSignature = signatures.length > 0 && lastEnd < endOfContent(pdf);
  if (signatures.length === 0) problems.push('the file has no signatures');
  if (modifiedAfterLastSignature) problems.push('the file was changed after its last signature (bytes or an incremental update follow it)');
  const valid = signatures.length > 0 && dicts.length <= maxSignatures && signatures.every((s) => s.passed) && !modifiedAfterLastSignature;
  return { validationTime: validationTime.toISOString(), fileSha256: createHash('sha256').update(pdf).digest('hex'), signatures, modifiedAfterLastSignature, valid, problems };
}

/** A signature timestamp's token, its TSA certificate, and whether that chain reaches an anchor. */
type StampFacts = { token: pkijs.SignedData; tsaSha256: string; trusted: boolean };
type Checked = { result: SignatureVerification; signed: pkijs.SignedData | null; stamp: StampFacts | null };

/**
 * Revocation and certificate validity at `at` (verify-over-time.ts): document timestamps
 * first, as the proofs of existence the signatures they cover may rely on.
 */
function judgeAtTime(pdf: Buffer, text: string, checked: Checked[], at: Date, fetched: VerifyPdfOptions['revocationData'], anchors: X509Certificate[]): void {
  const dss = checked.some((c) => c.result.chainTrusted) ? readDssItems(pdf, text) : [];
  const items: RevocationItem[] = [
    ...dss.filter((i) => i.kind !== 'cert').map((i) => ({ kind: i.kind as 'ocsp' | 'crl', der: i.der, source: 'dss' as const, offset: i.offset })),
    ...(fetched?.ocsps ?? []).map((der) => ({ kind: 'ocsp' as const, der: Buffer.from(der), source: 'fetched' as const, offset: -1 })),
    ...(fetched?.crls ?? []).map((der) => ({ kind: 'crl' as const, der: Buffer.from(der), source: 'fetched' as const, offset: -1 })),
  ];
  const dssCerts = dss.filter((i) => i.kind === 'cert').flatMap((i) => x509OrNone(i.der));
  const memo: ChainMemo = new Map();
  const end = (s: SignatureVerification) => (s.byteRange && s.byteRange.length === 4 ? s.byteRange[2]! + s.byteRange[3]! : -1);
  const judge = ({ result, signed, stamp }: Checked, stamps: DocumentTimestampProof[]) => {
    // Revocation is judged for chains that reach an anchor: only those can pass, and a hostile file's answers are never parsed otherwise.
    const signerChain = result.certificate && signed && result.chainTrusted ? judgeChain(result.certificate.sha256, poolOf(signed, dssCerts), anchors, items, memo) : [];
    const tsaChain = stamp?.trusted ? judgeChain(stamp.tsaSha256, poolOf(stamp.token, dssCerts), anchors, items, memo) : [];
    const leaf = signerChain[0] ?? null;
    const best = leaf?.best ?? { status: 'unknown' as const, source: null, revokedAt: null, thisUpdate: null, offset: -1 };
    result.revocation = report(best);
    result.chainRevocation = [...signerChain.map((l) => linkReport(l, 'signer')), ...tsaChain.map((l) => linkReport(l, 'signature-timestamp'))];
    result.revocationLookups = [...signerChain, ...tsaChain]
      .filter((l) => l.best.status === 'unknown')
      .map((l) => ({ certificate: new Uint8Array(l.cert.raw), issuer: new Uint8Array(l.issuer.raw) }));
    result.revocationLookup = leaf && best.status === 'unknown' ? result.revocationLookups[0] ?? null : null;
    const timed = {
      ...result,
      end: end(result),
      timestampRevokedAt: result.kind === 'signature' ? (earliestRevocation(tsaChain)?.revokedAt ?? null) : null,
    };
    const revocation = earliestRevocation(signerChain, at) ?? best;
    const judged = judgeOverTime(timed, { at, revocation, goodAnswers: leaf?.good ?? [], stamps });
    result.indication = judged.indication;
    result.subIndication = judged.subIndication;
    result.poeTime = judged.poeTime;
  };
  const stamps = checked.filter((c) => c.result.kind === 'document-timestamp');
  for (const stamp of stamps) judge(stamp, []);
  const proofs: DocumentTimestampProof[] = stamps
    .map((c) => c.result)
    .filter((s) => s.timestampTime !== null)
    .map((s) => ({ time: new Date(s.timestampTime!), end: end(s), passed: s.indication === 'TOTAL_PASSED' }));
  for (const c of checked) if (c.result.kind === 'signature') judge(c, proofs);
}

function report(f: { status: RevocationReport['status']; source: RevocationReport['source']; revokedAt: Date | null; thisUpdate: Date | null }): RevocationReport {
  return { status: f.status, source: f.source, revokedAt: f.revokedAt?.toISOString() ?? null, thisUpdate: f.thisUpdate?.toISOString() ?? null };
}

function linkReport(link: ChainLink, chain: CertificateRevocation['chain']): CertificateRevocation {
  return {
    chain,
    depth: link.depth,
    subject: link.cert.subject.split('\n').join(', '),
    serial: link.cert.serialNumber.toUpperCase(),
    sha256: createHash('sha256').update(link.cert.raw).digest('hex'),
    ...report(link.best),
  };
}

/** The certificates a CMS carries, with those of the file's DSS. */
function poolOf(signed: pkijs.SignedData, dssCerts: X509Certificate[]): X509Certificate[] {
  return [...(signed.certificates ?? []).flatMap((c) => (c instanceof pkijs.Certificate ? x509OrNone(Buffer.from(c.toSchema().toBER())) : [])), ...dssCerts];
}

function x509OrNone(der: Buffer): X509Certificate[] {
  try {
    return [new X509Certificate(der)];
  } catch {
    return [];
  }
}

function verifyOne(
  pdf: Buffer,
  text: string,
  dict: SignatureDictionary,
  fields: Map<string, string>,
  maxContentsBytes: number,
  anchors: ReturnType<typeof anchorCertificates>,
): Checked {
  const problems: string[] = [];
  let signed: pkijs.SignedData | null = null;
  const body = text.slice(dict.start, dict.end);
  const result: SignatureVerification = {
    field: fields.get(`${dict.objectNumber} ${dict.generation}`) ?? null,
    signer: pdfString(body, 'Name'),
    signingTime: pdfDate(pdfString(body, 'M')),
    timestampTime: null,
    level: null,
    kind: /\/SubFilter\s*\/ETSI\.RFC3161\b/.test(body) ? 'document-timestamp' : 'signature',
    byteRange: null,
    integrity: false,
    signatureValid: false,
    coversDocument: false,
    essCertificateMatches: false,
    timestampValid: null,
    certificate: null,
    problems,
    passed: false,
    chainTrusted: false,
    detectedLevel: null,
    indication: 'INDETERMINATE',
    subIndication: null,
    revocation: { status: 'unknown', source: null, revokedAt: null, thisUpdate: null },
    chainRevocation: [],
    poeTime: null,
    revocationLookup: null,
    revocationLookups: [],
  };
  let stampFacts: StampFacts | null = null;
  const finish = (): Checked => {
    result.passed = result.integrity && result.signatureValid && result.coversDocument && result.essCertificateMatches && result.timestampValid !== false;
    return { result, signed, stamp: stampFacts };
  };

  const rangeMatch = /\/ByteRange\s*\[([^\]]{0,200})\]/.exec(body);
  const contentsMatch = /\/Contents\s*</.exec(body);
  if (!rangeMatch) problems.push('the signature has no /ByteRange: it does not say which bytes it covers');
  if (!contentsMatch) problems.push('the signature has no /Contents');
  if (!rangeMatch || !contentsMatch) return finish();

  const range = rangeMatch[1]!.trim().split(/\s+/).map(Number);
  result.byteRange = range.every((n) => Number.isSafeInteger(n)) ? range : null;
  const contentsStart = dict.start + contentsMatch.index + contentsMatch[0].length - 1;
  const contentsEnd = pdf.indexOf(0x3e, contentsStart) + 1; // after '>'
  const rangeProblem = checkByteRange(range, pdf.length, contentsStart, contentsEnd);
  if (rangeProblem) {
    problems.push(rangeProblem);
    return finish();
  }
  const [a, b, c, d] = range as [number, number, number, number];
  result.coversDocument = a === 0 && endsRevision(pdf, c + d);
  if (!result.coversDocument) problems.push('the byte ranges do not run from the start of the file to the end of a revision');

  const hexLength = contentsEnd - contentsStart - 2;
  if (hexLength / 2 > maxContentsBytes) {
    problems.push(`the signature /Contents is larger than ${maxContentsBytes} bytes`);
    return finish();
  }
  const hex = pdf.subarray(contentsStart + 1, contentsEnd - 1).toString('latin1').replace(/\s+/g, '');
  if (!/^[0-9A-Fa-f]*$/.test(hex)) {
    problems.push('the signature /Contents is not a hex string');
    return finish();
  }
  try {
    signed = parseSignedData(trimDer(Buffer.from(hex, 'hex')));
  } catch (err) {
    problems.push(err instanceof CmsFormatError ? err.message : 'the CMS cannot be read');
    return finish();
  }
  const content = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  if (result.kind === 'document-timestamp') {
    // The token's signer is the TSA; its time is the timestamp's.
    const stamp = checkDocumentTimestamp(signed, content);
    problems.push(...stamp.problems);
    result.timestampTime = stamp.time;
    result.timestampValid = stamp.valid;
    result.integrity = stamp.imprintMatches && (stamp.signer?.integrity ?? false);
    result.signatureValid = stamp.signer?.signatureValid ?? false;
    result.essCertificateMatches = stamp.signer !== null && stamp.signer.essCertificateMatches !== false;
    result.certificate = stamp.signer?.certificate ?? null;
    result.signer ??= stamp.signer?.certificate?.commonName ?? null;
    result.signingTime ??= stamp.time;
    result.chainTrusted = result.certificate !== null && chainReachesAnchor(signed, result.certificate.sha256, anchors);
    return finish();
  }
  const check = checkSigner(signed, content);
  problems.push(...check.problems);
  result.integrity = check.integrity;
  result.signatureValid = check.signatureValid;
  result.certificate = check.certificate;
  result.signer ??= check.certificate?.commonName ?? null;
  result.essCertificateMatches = check.essCertificateMatches === true;
  result.chainTrusted = result.certificate !== null && chainReachesAnchor(signed, result.certificate.sha256, anchors);
  if (check.essCertificateMatches === null) problems.push('the signature has no ESS signing-certificate attribute (PAdES requires one)');
  const stamp = checkTimestamp(check.signerInfo);
  result.level = stamp ? 'B-T' : 'B-B';
  if (stamp) {
    result.timestampTime = stamp.time;
    result.timestampValid = stamp.valid;
    if (stamp.token && stamp.tsaSha256) stampFacts = { token: stamp.token, tsaSha256: stamp.tsaSha256, trusted: chainReachesAnchor(stamp.token, stamp.tsaSha256, anchors) };
    problems.push(...stamp.problems);
  }
  return finish();
}

function checkByteRange(range: number[], size: number, contentsStart: number, contentsEnd: number): string | null {
  if (range.length !== 4 || !range.every((n) => Number.isSafeInteger(n) && n >= 0)) return 'the /ByteRange is not four non-negative integers';
  const [a, b, c, d] = range as [number, number, number, number];
  if (a + b > size || c + d > size) return 'the /ByteRange points outside the file (truncated?)';
  if (a + b > c) return 'the /ByteRange ranges overlap';
  if (a + b !== contentsStart || c !== contentsEnd) return 'the gap in the /ByteRange is not exactly the signature /Contents';
  return null;
}

/** The DER value, without the /Contents zero padding (its length comes from the DER header). */
function trimDer(der: Buffer): Buffer {
  if (der[0] !== 0x30 || der.length < 2) throw new CmsFormatError('the signature /Contents is not a DER SEQUENCE');
  const first = der[1]!;
  if (first < 0x80) return der.subarray(0, 2 + first);
  const octets = first & 0x7f;
  if (octets === 0 || octets > 4) throw new CmsFormatError('the signature /Contents has an unsupported DER length');
  let length = 0;
  for (let i = 0; i < octets; i++) length = length * 256 + der[2 + i]!;
  if (2 + octets + length > der.length) throw new CmsFormatError('the signature /Contents is shorter than its DER length says');
  return der.subarray(0, 2 + octets + length);
}

