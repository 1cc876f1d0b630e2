import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { pkijsEngine } from './crypto-engine';
import type { LocalRoot } from './identity';
import { OCSP_OID } from './ocsp-oids';

/** What the local root says of a serial it issued. */
export type LocalCertStatus = { status: 'good' } | { status: 'revoked'; at: Date } | { status: 'unknown' };

export interface LocalResponderOptions {
  root: LocalRoot;
  /** The status of a certificate the root issued, by its serial (lower-case hex, no leading zeros). */
  statusOf(serialHex: string): LocalCertStatus;
  now: Date;
  /** How long an answer may be cached: nextUpdate = now + this. */
  validityMs: number;
}

export class OcspRequestError extends Error {}

/** A serial as lower-case hex without leading zero octets, the way both sides compare it. */
export function serialHexOf(serial: asn1js.Integer): string {
  const bytes = Buffer.from(serial.valueBlock.valueHexView);
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i).toString('hex');
}

/** A DER OCSPResponse with only a status (malformedRequest 1, internalError 2, unauthorized 6). */
export function ocspErrorResponse(status: 1 | 2 | 6): Buffer {
  return Buffer.from(new pkijs.OCSPResponse({ responseStatus: new asn1js.Enumerated({ value: status }) }).toSchema().toBER());
}

/**
 * Answers an RFC 6960 OCSP request for certificates the local root issued: a BasicOCSPResponse
 * signed by the root itself (no delegated responder), one SingleResponse per requested
 * certificate (`unknown` for any the root did not issue), the request's nonce echoed.
 */
export async function answerOcspRequest(requestDer: Uint8Array, options: LocalResponderOptions): Promise<Buffer> {
  const engine = pkijsEngine();
  let request: pkijs.OCSPRequest;
  try {
    request = pkijs.OCSPRequest.fromBER(new Uint8Array(requestDer));
  } catch (err) {
    throw new OcspRequestError(`not an OCSP request: ${(err as Error).message}`);
  }
  const { root, now } = options;
  const nameDer = Buffer.from(root.certificate.subject.toSchema().toBER());
  const keyBits = Buffer.from(root.certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  const responses: pkijs.SingleResponse[] = [];
  for (const item of request.tbsRequest.requestList) {
    const certId = item.reqCert;
    const hash = hashName(certId.hashAlgorithm.algorithmId);
    const ours =
      hash !== null &&
      Buffer.from(certId.issuerNameHash.valueBlock.valueHexView).equals(createHash(hash).update(nameDer).digest()) &&
      Buffer.from(certId.issuerKeyHash.valueBlock.valueHexView).equals(createHash(hash).update(keyBits).digest());
    const status: LocalCertStatus = ours ? options.statusOf(serialHexOf(certId.serialNumber)) : { status: 'unknown' };
    responses.push(
      new pkijs.SingleResponse({
        certID: certId,
        certStatus: certStatus(status),
        thisUpdate: now,
        nextUpdate: new Date(now.getTime() + options.validityMs),
      }),
    );
  }
  const nonce = request.tbsRequest.requestExtensions?.find((ext) => ext.extnID === OCSP_OID.nonce);
  const basic = new pkijs.BasicOCSPResponse({
    tbsResponseData: new pkijs.ResponseData({
      // responderID byKey [2]: SHA-1 of the responder's public key bits.
      responderID: new asn1js.OctetString({ valueHex: createHash('sha1').update(keyBits).digest() }),
      producedAt: now,
      responses,
      ...(nonce ? { responseExtensions: [nonce] } : {}),
    }),
    certs: [root.certificate],
  });
  await basic.sign(root.privateKey as never, 'SHA-256', engine);
  return Buffer.from(
    new pkijs.OCSPResponse({
      responseStatus: new asn1js.Enumerated({ value: 0 }),
      responseBytes: new pkijs.ResponseBytes({
        responseType: OCSP_OID.basic,
        response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER() }),
      }),
    })
      .toSchema()
      .toBER(),
  );
}

function hashName(oid: string): 'sha1' | 'sha256' | null {
  if (oid === '1.3.14.3.2.26') return 'sha1';
  if (oid === '2.16.840.1.101.3.4.2.1') return 'sha256';
  return null;
}

/** CertStatus ::= CHOICE { good [0] NULL, revoked [1] RevokedInfo, unknown [2] NULL }. */
function certStatus(status: LocalCertStatus): asn1js.BaseBlock {
  if (status.status === 'revoked') {
    return new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value: [new asn1js.GeneralizedTime({ valueDate: status.at })] });
  }
  return new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: status.status === 'good' ? 0 : 2 }, lenBlockLength: 1 } as never);
}

export interface LocalCrlOptions {
  root: LocalRoot;
  revoked: { serialHex: string; at: Date }[];
  now: Date;
  validityMs: number;
}

/** The local root's CRL (v2, with a CRL number and the root's key identifier), signed by the root. */
export async function issueLocalCrl(options: LocalCrlOptions): Promise<Buffer> {
  const engine = pkijsEngine();
  const { root, now } = options;
  const keyBits = Buffer.from(root.certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  const crl = new pkijs.CertificateRevocationList({
    version: 1,
    issuer: root.certificate.subject,
    thisUpdate: new pkijs.Time({ type: 0, value: now }),
    nextUpdate: new pkijs.Time({ type: 0, value: new Date(now.getTime() + options.validityMs) }),
    ...(options.revoked.length > 0
      ? {
          revokedCertificates: options.revoked.map(
            (entry) =>
              new pkijs.RevokedCertificate({
                userCertificate: new asn1js.Integer({ valueHex: Buffer.from(entry.serialHex.length % 2 ? `0${entry.serialHex}` : entry.serialHex, 'hex') }),
                revocationDate: new pkijs.Time({ type: 0, value: entry.at }),
              }),
          ),
        }
      : {}),
    crlExtensions: new pkijs.Extensions({
      extensions: [
        new pkijs.Extension({
          extnID: '2.5.29.35',
          extnValue: new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: createHash('sha1').update(keyBits).digest() }) })
            .toSchema()
            .toBER(),
        }),
        new pkijs.Extension({ extnID: '2.5.29.20', extnValue: new asn1js.Integer({ value: Math.floor(now.getTime() / 1000) }).toBER() }),
      ],
    }),
  });
  await crl.sign(root.privateKey as never, 'SHA-256', engine);
  return Buffer.from(crl.toSchema(true).toBER());
}
