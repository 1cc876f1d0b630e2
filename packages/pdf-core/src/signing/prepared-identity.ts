import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SigningIdentity } from './identity';

/**
 * An ASN.1 value encoded once: wherever it is encoded it writes that DER as is (asn1js
 * otherwise encodes every node of it again, and pkijs re-parses a certificate's TBS part
 * and an issuer name first, on every CMS).
 */
class EncodedOnce extends asn1js.Sequence {
  readonly #der: Uint8Array;

  constructor(block: { toBER(): ArrayBuffer }) {
    super();
    this.#der = new Uint8Array(block.toBER());
  }

  override toBER(_sizeOnly?: boolean, writer?: asn1js.ViewWriter): ArrayBuffer {
    const der = this.#der.slice().buffer;
    if (!writer) return der;
    writer.write(der);
    return new ArrayBuffer(0);
  }
}

/** A certificate that goes into a CMS as the DER pkijs would encode for it, encoded once. */
class EncodedOnceCertificate extends pkijs.Certificate {
  #encoded?: EncodedOnce;

  override toSchema(encodeFlag = false): asn1js.Sequence {
    if (encodeFlag) return super.toSchema(true);
    return (this.#encoded ??= new EncodedOnce(super.toSchema(false)));
  }
}

/** The signer's IssuerAndSerialNumber, encoded once. */
class EncodedOnceIssuerAndSerialNumber extends pkijs.IssuerAndSerialNumber {
  #encoded?: EncodedOnce;

  override toSchema(): asn1js.Sequence {
    return (this.#encoded ??= new EncodedOnce(super.toSchema()));
  }
}

/** What every seal with one identity shares: built once per certificate, not once per seal. */
export interface PreparedIdentity {
  /** The signer's certificate, then the chain, for the CMS `certificates` field. */
  certificates: pkijs.Certificate[];
  sid: pkijs.IssuerAndSerialNumber;
  /** The value of the ESS signing-certificate-v2 signed attribute. */
  signingCertificateV2: asn1js.Sequence;
}

interface CacheEntry {
  /** The identity's fields the entry was built from: a change to any of them builds it again. */
  certificate: pkijs.Certificate;
  certificateDer: Buffer;
  chain: pkijs.Certificate[];
  chainLength: number;
  prepared: PreparedIdentity;
}

const cache = new WeakMap<SigningIdentity, CacheEntry>();

/**
 * The identity's CMS parts, built on its first seal and kept while its certificate, DER
 * and chain stay the ones they were built from (an identity object whose certificate is
 * replaced gets new parts on its next seal).
 */
export function preparedIdentity(identity: SigningIdentity): PreparedIdentity {
  const entry = cache.get(identity);
  if (
    entry &&
    entry.certificate === identity.certificate &&
    entry.certificateDer === identity.certificateDer &&
    entry.chain === identity.chain &&
    entry.chainLength === identity.chain.length
  ) {
    return entry.prepared;
  }
  const prepared = prepare(identity);
  cache.set(identity, { certificate: identity.certificate, certificateDer: identity.certificateDer, chain: identity.chain, chainLength: identity.chain.length, prepared });
  return prepared;
}

function prepare(identity: SigningIdentity): PreparedIdentity {
  // Each certificate as pkijs encodes it into a CMS (toSchema of the parsed TBS).
  const once = (c: pkijs.Certificate) => EncodedOnceCertificate.fromBER(c.toSchema().toBER()) as EncodedOnceCertificate;
  const cert = once(identity.certificate);
  const chain = identity.chain.map(once);
  return {
    certificates: [cert, ...chain],
    sid: new EncodedOnceIssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    signingCertificateV2: new EncodedOnce(signingCertificateV2(cert, identity.certificateDer)),
  };
}

/**
 * SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }, one ESSCertIDv2
 * { certHash, issuerSerial } with the SHA-256 default hash algorithm left out, as DER wants.
 */
function signingCertificateV2(cert: pkijs.Certificate, der: Buffer): asn1js.Sequence {
  const certHash = createHash('sha256').update(der).digest();
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [cert.issuer.toSchema()] })],
      }),
      new asn1js.Integer({ valueHex: cert.serialNumber.valueBlock.valueHexView }),
    ],
  });
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash }), issuerSerial] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}
