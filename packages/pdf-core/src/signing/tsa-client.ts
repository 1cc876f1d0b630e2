import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { pkijsEngine } from './crypto-engine';
import { OID } from './oids';

/** An RFC 3161 token as it goes into the CMS, with the time the TSA vouches for. */
export interface TimestampToken {
  /** The TimeStampToken (a ContentInfo) exactly as the TSA encoded it. */
  der: Buffer;
  genTime: Date;
}

export interface TsaClient {
  readonly url: string;
  /**
   * Timestamps `data` (a CMS signature value) through its SHA-256 imprint. Rejects with
   * TsaError on any failure: never an unchecked token.
   */
  timestamp(data: Buffer): Promise<TimestampToken>;
}

export class TsaError extends Error {}

export interface TsaClientOptions {
  url: string;
  timeoutMs?: number;
  /** Attempts per call on network errors (the TSA may close a kept-alive socket). Default 2. */
  attempts?: number;
}

export function createTsaClient(options: TsaClientOptions): TsaClient {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const attempts = options.attempts ?? 2;
  const tokenSignedData = signedDataWithKnownCertificates();
  return {
    url: options.url,
    async timestamp(data) {
      const sha256 = createHash('sha256').update(data).digest();
      const nonce = positiveNonce();
      const request = new pkijs.TimeStampReq({
        version: 1,
        messageImprint: new pkijs.MessageImprint({
          hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
          hashedMessage: new asn1js.OctetString({ valueHex: sha256 }),
        }),
        nonce: new asn1js.Integer({ valueHex: nonce }),
        certReq: true,
      });
      const body = Buffer.from(request.toSchema().toBER());
      let lastError: unknown;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        let response: Response;
        try {
          response = await fetch(options.url, {
            method: 'POST',
            headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
            body,
            signal: AbortSignal.timeout(timeoutMs),
          });
        } catch (err) {
          lastError = err;
          continue;
        }
        if (!response.ok) throw new TsaError(`TSA ${options.url} answered HTTP ${response.status}`);
        return checkResponse(Buffer.from(await response.arrayBuffer()), data, sha256, nonce, tokenSignedData);
      }
      throw new TsaError(`TSA ${options.url} unreachable: ${(lastError as Error)?.message ?? lastError}`);
    },
  };
}

/** A positive, minimally encoded DER INTEGER: top bit clear and no leading zero octet. */
function positiveNonce(): Buffer {
  const nonce = randomBytes(8);
  nonce[0] = nonce[0]! & 0x7f || 0x01;
  return nonce;
}

/**
 * Accepts a reply only if it was granted, is a signed TSTInfo whose signature verifies
 * with the certificate it carries, and echoes our imprint and nonce (pkijs checks the
 * imprint against `data` once more while verifying).
 */
async function checkResponse(
  reply: Buffer,
  data: Buffer,
  imprint: Buffer,
  nonce: Buffer,
  tokenSignedData: (content: asn1js.Sequence) => pkijs.SignedData,
): Promise<TimestampToken> {
  const asn1 = asn1js.fromBER(reply);
  if (asn1.offset === -1) throw new TsaError('TSA reply is not DER');
  let resp: pkijs.TimeStampResp;
  try {
    resp = new pkijs.TimeStampResp({ schema: asn1.result });
  } catch (err) {
    throw new TsaError(`TSA reply is not a TimeStampResp: ${(err as Error).message}`);
  }
  const status = resp.status.status;
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) {
    const text = resp.status.statusStrings?.map((s) => s.valueBlock.value).join('; ');
    throw new TsaError(`TSA refused the request (status ${status}${text ? `: ${text}` : ''})`);
  }
  if (!resp.timeStampToken) throw new TsaError('TSA granted the request but sent no token');
  const tokenSchema = (asn1.result as asn1js.Sequence).valueBlock.value[1];
  if (!tokenSchema) throw new TsaError('TSA reply lacks the token');
  const signed = tokenSignedData(resp.timeStampToken.content as asn1js.Sequence);
  if (signed.encapContentInfo.eContentType !== OID.tstInfo || !signed.encapContentInfo.eContent) {
    throw new TsaError('TSA token does not hold a TSTInfo');
  }
  const tstDer = octets(signed.encapContentInfo.eContent);
  const tst = pkijs.TSTInfo.fromBER(tstDer);
  const imprintAlg = tst.messageImprint.hashAlgorithm.algorithmId;
  const returned = Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (imprintAlg !== OID.sha256 || !returned.equals(imprint)) throw new TsaError('TSA token covers a different message imprint');
  const returnedNonce = tst.nonce ? stripLeadingZeros(Buffer.from(tst.nonce.valueBlock.valueHexView)) : null;
  if (!returnedNonce || !returnedNonce.equals(stripLeadingZeros(nonce))) throw new TsaError('TSA token does not carry our nonce');
  let verified = false;
  try {
    verified = (await signed.verify({ signer: 0, data: new Uint8Array(data).buffer, checkChain: false, extendedMode: false }, pkijsEngine())) as boolean;
  } catch (err) {
    throw new TsaError(`TSA token signature does not verify: ${(err as { message?: string }).message ?? String(err)}`);
  }
  if (!verified) throw new TsaError('TSA token signature does not verify');
  return { der: Buffer.from(tokenSchema.valueBeforeDecodeView), genTime: tst.genTime };
}

/**
 * The token's SignedData as pkijs reads it, with the certificates a TSA sends in every token
 * (its own, often its chain) parsed once: a token carrying byte for byte the certificates of
 * the last one parsed gets those (pkijs's parse of two certificates is most of a token
 * check, about 2 ms); any other is parsed whole and remembered instead. The checks on the
 * token are pkijs's as before, on the same certificates.
 */
function signedDataWithKnownCertificates(): (content: asn1js.Sequence) => pkijs.SignedData {
  let known: { der: Buffer; certificates: NonNullable<pkijs.SignedData['certificates']> } | undefined;
  return (content) => {
    const fields = content.valueBlock.value;
    // SignedData's [0] IMPLICIT CertificateSet.
    const certificates = fields.find((field) => field.idBlock.tagClass === 3 && field.idBlock.tagNumber === 0);
    if (!certificates) return new pkijs.SignedData({ schema: content });
    const der = Buffer.from(certificates.valueBeforeDecodeView);
    if (known?.der.equals(der)) {
      const signed = new pkijs.SignedData({ schema: new asn1js.Sequence({ value: fields.filter((field) => field !== certificates) }) });
      signed.certificates = known.certificates.slice(0);
      return signed;
    }
    const signed = new pkijs.SignedData({ schema: content });
    known = { der, certificates: signed.certificates?.slice(0) ?? [] };
    return signed;
  };
}

function octets(value: asn1js.OctetString): Buffer {
  // Some TSAs wrap the TSTInfo in a constructed OCTET STRING; concatenate its parts.
  if (value.idBlock.isConstructed) {
    return Buffer.concat((value.valueBlock.value as asn1js.OctetString[]).map((part) => octets(part)));
  }
  return Buffer.from(value.valueBlock.valueHexView);
}

function stripLeadingZeros(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
}
