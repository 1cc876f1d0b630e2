import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { pkijsEngine } from './crypto-engine';
import type { SigningIdentity } from './identity';
import { OID } from './oids';
import { preparedIdentity } from './prepared-identity';
import type { TsaClient } from './tsa-client';

/**
 * PAdES baseline levels (ETSI EN 319 142-1): B-B a signature; B-T with a signature
 * timestamp; B-LT with the validation data (DSS) of both chains; B-LTA with a document
 * timestamp over all of it.
 */
export const PADES_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export type PadesLevel = (typeof PADES_LEVELS)[number];

export interface CadesSignature {
  der: Buffer;
  level: 'B-B' | 'B-T';
  tsaTime: Date | null;
  /** The signature timestamp token (B-T), whose certificates the DSS must cover. */
  tsaToken: Buffer | null;
}

/**
 * A detached CAdES signature over `content` as PAdES baseline needs it: SHA-256, signed
 * attributes contentType, messageDigest and ESS signing-certificate-v2 (in DER SET order,
 * no signingTime: the time belongs in the signature dictionary's /M) and, with a TSA, an
 * RFC 3161 token over the signature value as unsigned attribute.
 */
export async function createCadesSignature(content: Buffer, identity: SigningIdentity, tsa?: TsaClient): Promise<CadesSignature> {
  const engine = pkijsEngine();
  const digest = createHash('sha256').update(content).digest();
  // The certificate's parts are built once per identity (prepared-identity.ts), not on every seal.
  const prepared = preparedIdentity(identity);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: prepared.sid,
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
        new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
        new pkijs.Attribute({ type: OID.signingCertificateV2, values: [prepared.signingCertificateV2] }),
      ],
    }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [signerInfo],
    certificates: [...prepared.certificates],
  });
  await signedData.sign(identity.privateKey as never, 0, 'SHA-256', undefined, engine);

  let tsaTime: Date | null = null;
  let tsaToken: Buffer | null = null;
  if (tsa) {
    const signatureValue = Buffer.from(signerInfo.signature.valueBlock.valueHexView);
    const token = await tsa.timestamp(signatureValue);
    const tokenAsn1 = asn1js.fromBER(token.der);
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [tokenAsn1.result] })],
    });
    tsaTime = token.genTime;
    tsaToken = token.der;
  }
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return { der: Buffer.from(contentInfo.toSchema().toBER()), level: tsa ? 'B-T' : 'B-B', tsaTime, tsaToken };
}
