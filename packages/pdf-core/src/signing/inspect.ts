import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from './oids';

export interface EmbeddedSignature {
  byteRange: [number, number, number, number];
  /** The CMS exactly as long as its DER says (the /Contents padding stripped). */
  cms: Buffer;
  /** The bytes the signature covers: both ranges, concatenated. */
  signedContent: Buffer;
  /** Whether the ranges cover the file from its first to its last byte, bar /Contents. */
  coversWholeFile: boolean;
}

/**
 * Every signature of a PDF, in file order. The CMS length comes from its DER header:
 * trimming trailing zeros of the /Contents (as @signpdf/utils does) can cut a CMS that
 * happens to end in a zero byte.
 */
export function extractSignatures(pdf: Buffer): EmbeddedSignature[] {
  const found: EmbeddedSignature[] = [];
  const pattern = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  const text = pdf.toString('latin1');
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const range = match.slice(1, 5).map(Number) as [number, number, number, number];
    const [a, b, c, d] = range;
    if (c + d > pdf.length || pdf[b] !== 0x3c || pdf[c - 1] !== 0x3e) continue;
    const hex = pdf.subarray(b + 1, c - 1).toString('latin1');
    const padded = Buffer.from(hex, 'hex');
    found.push({
      byteRange: range,
      cms: padded.subarray(0, derLength(padded)),
      signedContent: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]),
      coversWholeFile: a === 0 && c + d === pdf.length,
    });
  }
  return found;
}

function derLength(der: Buffer): number {
  if (der[0] !== 0x30) throw new Error('signature /Contents is not a DER SEQUENCE');
  const first = der[1]!;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  let length = 0;
  for (let i = 0; i < octets; i++) length = length * 256 + der[2 + i]!;
  return 2 + octets + length;
}

export interface SignatureTimestamp {
  /** The RFC 3161 TimeStampToken (ContentInfo DER). */
  token: Buffer;
  /** The signature value the token's imprint was computed over. */
  signatureValue: Buffer;
}

/** The signature-timestamp token of a CMS (B-T), or null for B-B. */
export function signatureTimestampOf(cms: Buffer): SignatureTimestamp | null {
  const contentInfo = pkijs.ContentInfo.fromBER(cms);
  const signed = new pkijs.SignedData({ schema: contentInfo.content });
  const signer = signed.signerInfos[0];
  const attr = signer?.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken);
  if (!signer || !attr?.values[0]) return null;
  return {
    token: Buffer.from((attr.values[0] as asn1js.BaseBlock).toBER()),
    signatureValue: Buffer.from(signer.signature.valueBlock.valueHexView),
  };
}

/** The signed attributes' types, in encoded order (for checking the PAdES baseline profile). */
export function signedAttributeTypes(cms: Buffer): string[] {
  const contentInfo = pkijs.ContentInfo.fromBER(cms);
  const signed = new pkijs.SignedData({ schema: contentInfo.content });
  return signed.signerInfos[0]?.signedAttrs?.attributes.map((a) => a.type) ?? [];
}

/** The ESS signing-certificate-v2 certHash of a CMS's signer. */
export function essCertificateHash(cms: Buffer): Buffer | null {
  const contentInfo = pkijs.ContentInfo.fromBER(cms);
  const signed = new pkijs.SignedData({ schema: contentInfo.content });
  const attr = signed.signerInfos[0]?.signedAttrs?.attributes.find((a) => a.type === OID.signingCertificateV2);
  const value = attr?.values[0] as asn1js.Sequence | undefined;
  const certs = value?.valueBlock.value[0] as asn1js.Sequence | undefined;
  const first = certs?.valueBlock.value[0] as asn1js.Sequence | undefined;
  const hash = first?.valueBlock.value.find((v) => v instanceof asn1js.OctetString) as asn1js.OctetString | undefined;
  return hash ? Buffer.from(hash.valueBlock.valueHexView) : null;
}
