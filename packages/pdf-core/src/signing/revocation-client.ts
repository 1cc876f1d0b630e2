import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { pkijsEngine } from './crypto-engine';
import { OCSP_OID } from './ocsp-oids';
import { fetchBytes, type OutboundCheck } from './revocation-fetch';

/** Revocation evidence for one certificate, as it goes into a DSS. */
export type RevocationEvidence = { kind: 'ocsp'; der: Buffer; responderCerts: pkijs.Certificate[] } | { kind: 'crl'; der: Buffer };

export interface RevocationClient {
  /**
   * A checked OCSP response (from the certificate's AIA) or, failing that, a checked CRL
   * (from its distribution points) saying `cert` is not revoked. Rejects with
   * RevocationError when neither can be had or the certificate is revoked.
   */
  evidenceFor(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<RevocationEvidence>;
  /**
   * The same checked answer, whatever status it gives (a verifier judges a revoked
   * certificate by the time of its revocation); rejects when no answer can be had.
   */
  answerFor?(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<RevocationEvidence & { revoked: boolean }>;
}

export class RevocationError extends Error {
  constructor(
    message: string,
    /** The certificate is revoked: final, no other source may contradict it. */
    readonly revoked = false,
  ) {
    super(message);
  }
}

export interface RevocationClientOptions {
  /** Per request; default 10 s. */
  timeoutMs?: number;
  /** The outbound address policy (webhooks'); unset: any address. */
  check?: OutboundCheck;
  clock?: () => Date;
  /** Tolerance on thisUpdate in the future and nextUpdate in the past; default 5 min. */
  clockSkewMs?: number;
}

const MAX_OCSP_BYTES = 64 * 1024;
const MAX_CRL_BYTES = 10 * 1024 * 1024;

/** URIs of an access method (AIA) or of the distribution points (CDP) in a certificate. */
export function certificateUris(cert: pkijs.Certificate, what: 'ocsp' | 'caIssuers' | 'crl'): string[] {
  const uris: string[] = [];
  for (const ext of cert.extensions ?? []) {
    if (what !== 'crl' && ext.extnID === OCSP_OID.authorityInfoAccess) {
      const method = what === 'ocsp' ? OCSP_OID.accessOcsp : OCSP_OID.accessCaIssuers;
      for (const desc of (ext.parsedValue as pkijs.InfoAccess).accessDescriptions) {
        if (desc.accessMethod === method && desc.accessLocation.type === 6) uris.push(String(desc.accessLocation.value));
      }
    }
    if (what === 'crl' && ext.extnID === OCSP_OID.crlDistributionPoints) {
      for (const point of (ext.parsedValue as pkijs.CRLDistributionPoints).distributionPoints) {
        const names = Array.isArray(point.distributionPoint) ? point.distributionPoint : [];
        for (const name of names) if (name.type === 6) uris.push(String(name.value));
      }
    }
  }
  return uris;
}

/**
 * Fetches revocation data as a careful client: OCSP first, with a nonce, the answer's
 * signature checked against the issuer or a responder it delegated to (id-kp-OCSPSigning),
 * its thisUpdate/nextUpdate against the clock and its nonce when it echoes one; the CRL
 * as fallback, checked the same way. Answers are cached until their nextUpdate; one without
 * nextUpdate is never reused.
 */
export function createRevocationClient(options: RevocationClientOptions = {}): RevocationClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const clock = options.clock ?? (() => new Date());
  const skew = options.clockSkewMs ?? 5 * 60 * 1000;
  const cache = new Map<string, { answer: { evidence: RevocationEvidence; revoked: boolean }; until: number }>();
  const engine = pkijsEngine();

  function fresh(thisUpdate: Date, nextUpdate: Date | undefined, what: string): void {
    const now = clock().getTime();
    if (thisUpdate.getTime() > now + skew) throw new RevocationError(`${what}: thisUpdate is in the future`);
    if (nextUpdate && nextUpdate.getTime() < now - skew) throw new RevocationError(`${what}: nextUpdate has passed (stale answer)`);
  }

  async function ocsp(url: string, cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<RevocationEvidence & { until?: Date; revoked: boolean }> {
    const request = new pkijs.OCSPRequest();
    await request.createForCertificate(cert, { hashAlgorithm: 'SHA-1', issuerCertificate: issuer }, engine);
    const nonce = randomBytes(16);
    request.tbsRequest.requestExtensions = [
      new pkijs.Extension({ extnID: OCSP_OID.nonce, extnValue: new asn1js.OctetString({ valueHex: nonce }).toBER() }),
    ];
    const der = await fetchBytes(url, {
      method: 'POST',
      body: Buffer.from(request.toSchema(true).toBER()),
      contentType: 'application/ocsp-request',
      accept: 'application/ocsp-response',
      timeoutMs,
      maxBytes: MAX_OCSP_BYTES,
      check: options.check,
    });
    const response = pkijs.OCSPResponse.fromBER(new Uint8Array(der));
    const status = response.responseStatus.valueBlock.valueDec;
    if (status !== 0 || !response.responseBytes) throw new RevocationError(`OCSP ${url} answered status ${status}`);
    if (response.responseBytes.responseType !== OCSP_OID.basic) throw new RevocationError(`OCSP ${url} answered an unknown response type`);
    const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes.response.valueBlock.valueHexView);
    const signer = await responderCertificate(basic, issuer);
    const signed = await engine.verifyWithPublicKey(basic.tbsResponseData.tbsView, basic.signature, signer.subjectPublicKeyInfo, basic.signatureAlgorithm);
    if (!signed) throw new RevocationError(`OCSP ${url}: the response's signature does not verify`);
    const echoed = basic.tbsResponseData.responseExtensions?.find((ext) => ext.extnID === OCSP_OID.nonce);
    if (echoed) {
      const value = asn1js.fromBER(echoed.extnValue.valueBlock.valueHexView).result as asn1js.OctetString;
      if (!Buffer.from(value.valueBlock.valueHexView).equals(nonce)) throw new RevocationError(`OCSP ${url}: the nonce differs from ours (replayed answer?)`);
    }
    const wanted = request.tbsRequest.requestList[0]!.reqCert;
    const single = basic.tbsResponseData.responses.find((r) => r.certID.isEqual(wanted));
    if (!single) throw new RevocationError(`OCSP ${url}: no answer for the certificate asked about`);
    fresh(single.thisUpdate, single.nextUpdate, `OCSP ${url}`);
    const tag = (single.certStatus as asn1js.BaseBlock).idBlock.tagNumber;
    if (tag !== 0 && tag !== 1) throw new RevocationError(`OCSP ${url}: the responder does not know the certificate`);
    const responderCerts = signer === issuer ? [] : [signer];
    return { kind: 'ocsp', der, responderCerts, until: single.nextUpdate, revoked: tag === 1 };
  }

  /** The issuer itself, or a certificate in the response that the issuer gave id-kp-OCSPSigning. */
  async function responderCertificate(basic: pkijs.BasicOCSPResponse, issuer: pkijs.Certificate): Promise<pkijs.Certificate> {
    const id = basic.tbsResponseData.responderID as pkijs.RelativeDistinguishedNames | asn1js.OctetString;
    const candidates = [issuer, ...(basic.certs ?? [])];
    for (const candidate of candidates) {
      const matches =
        id instanceof asn1js.OctetString
          ? Buffer.from(id.valueBlock.valueHexView).equals(createHash('sha1').update(candidate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest())
          : candidate.subject.isEqual(id);
      if (!matches) continue;
      if (candidate === issuer || sameCertificate(candidate, issuer)) return issuer;
      const eku = candidate.extensions?.find((ext) => ext.extnID === OCSP_OID.extKeyUsage)?.parsedValue as pkijs.ExtKeyUsage | undefined;
      if (!eku?.keyPurposes.includes(OCSP_OID.kpOcspSigning)) continue;
      if (!candidate.issuer.isEqual(issuer.subject) || !(await candidate.verify(issuer, engine))) continue;
      return candidate;
    }
    throw new RevocationError('OCSP response signed by neither the issuer nor a responder it authorised');
  }

  async function crl(url: string, cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<RevocationEvidence & { until?: Date; revoked: boolean }> {
    let der = await fetchBytes(url, { method: 'GET', accept: 'application/pkix-crl', timeoutMs, maxBytes: MAX_CRL_BYTES, check: options.check });
    const text = der.subarray(0, 64).toString('latin1');
    if (text.includes('-----BEGIN X509 CRL-----')) der = Buffer.from(der.toString('latin1').replace(/-----[^-]+-----|\s+/g, ''), 'base64');
    const list = pkijs.CertificateRevocationList.fromBER(new Uint8Array(der));
    if (!list.issuer.isEqual(issuer.subject)) throw new RevocationError(`CRL ${url} is not the issuer's`);
    if (!(await list.verify({ issuerCertificate: issuer }, engine))) throw new RevocationError(`CRL ${url}: the signature does not verify`);
    fresh(list.thisUpdate.value, list.nextUpdate?.value, `CRL ${url}`);
    return { kind: 'crl', der, until: list.nextUpdate?.value, revoked: list.isCertificateRevoked(cert) };
  }

  /** The first answer of the AIA's OCSP responders, then of the CRL distribution points; a revoked one is final. */
  async function answer(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<{ evidence: RevocationEvidence; revoked: boolean }> {
    const key = Buffer.from(cert.toSchema().toBER()).toString('base64');
    const cached = cache.get(key);
    if (cached && cached.until > clock().getTime()) return cached.answer;
    const errors: string[] = [];
    const sources = [
      ...certificateUris(cert, 'ocsp').map((url) => () => ocsp(url, cert, issuer)),
      ...certificateUris(cert, 'crl').map((url) => () => crl(url, cert, issuer)),
    ];
    for (const source of sources) {
      try {
        // A revoked answer is final: no fallback may contradict it.
        const { until, revoked, ...evidence } = await source();
        const found = { evidence, revoked };
        if (until && until.getTime() > clock().getTime()) cache.set(key, { answer: found, until: until.getTime() });
        return found;
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    const subject = cert.subject.typesAndValues.map((tv) => String(tv.value.valueBlock.value)).join(', ');
    if (sources.length === 0) throw new RevocationError(`the certificate "${subject}" names no OCSP responder and no CRL`);
    throw new RevocationError(`no revocation data for "${subject}": ${errors.join('; ')}`);
  }

  return {
    async answerFor(cert, issuer) {
      const { evidence, revoked } = await answer(cert, issuer);
      return { ...evidence, revoked };
    },
    async evidenceFor(cert, issuer) {
      const { evidence, revoked } = await answer(cert, issuer);
      if (revoked) throw new RevocationError(`${evidence.kind === 'ocsp' ? 'OCSP' : 'CRL'}: the certificate is revoked`, true);
      return evidence;
    },
  };
}

function sameCertificate(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  return Buffer.from(a.toSchema().toBER()).equals(Buffer.from(b.toSchema().toBER()));
}
