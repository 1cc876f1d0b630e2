import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { createCadesSignature } from './cades';
import { pkijsEngine } from './crypto-engine';
import { generateSelfSignedPkcs12, loadPkcs12, type SigningIdentity } from './identity';
import { essCertificateHash } from './inspect';
import { OID } from './oids';
import { preparedIdentity } from './prepared-identity';

/** The B-B CMS as pkijs builds it from the identity's own objects, every part encoded afresh (what every seal did before). */
async function cmsFromScratch(content: Buffer, identity: SigningIdentity): Promise<Buffer> {
  const cert = identity.certificate;
  const digest = createHash('sha256').update(content).digest();
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [cert.issuer.toSchema()] })] }),
      new asn1js.Integer({ valueHex: cert.serialNumber.valueBlock.valueHexView }),
    ],
  });
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: createHash('sha256').update(identity.certificateDer).digest() }), issuerSerial] });
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
        new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: digest })] }),
        new pkijs.Attribute({ type: OID.signingCertificateV2, values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })] }),
      ],
    }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [signerInfo],
    certificates: [cert, ...identity.chain],
  });
  await signedData.sign(identity.privateKey as never, 0, 'SHA-256', undefined, pkijsEngine());
  return Buffer.from(new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) }).toSchema().toBER());
}

/** The DER of every certificate the CMS carries. */
function carriedCertificates(cms: Buffer): Buffer[] {
  const signedData = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: asn1js.fromBER(cms).result }).content });
  return (signedData.certificates ?? []).map((c) => Buffer.from((c as pkijs.Certificate).toSchema().toBER()));
}

describe('the identity’s CMS parts, built once', () => {
  let identity: SigningIdentity;
  let other: SigningIdentity;

  beforeAll(async () => {
    identity = await loadPkcs12(generateSelfSignedPkcs12({ commonName: 'Sello de prueba', organization: 'Firma tests' }), undefined);
    other = await loadPkcs12(generateSelfSignedPkcs12({ commonName: 'Otro sello' }), undefined);
  });

  it('are built on the first seal and reused by the next ones', () => {
    const fresh = { ...identity };
    const first = preparedIdentity(fresh);
    expect(preparedIdentity(fresh)).toBe(first);
  });

  it('give the same CMS bytes as pkijs building every part afresh, on the first seal and on later ones (RSA PKCS#1 v1.5 is deterministic)', async () => {
    const fresh = { ...identity };
    for (let i = 0; i < 3; i++) {
      const content = randomBytes(1000 + i);
      const cms = await createCadesSignature(content, fresh);
      expect(cms.der.equals(await cmsFromScratch(content, fresh))).toBe(true);
    }
  });

  it('are built again when the identity’s certificate is replaced: the next CMS names and carries the new one', async () => {
    const rotating: SigningIdentity = { ...identity };
    const before = await createCadesSignature(randomBytes(64), rotating);
    expect(essCertificateHash(before.der)).toEqual(createHash('sha256').update(identity.certificateDer).digest());
    Object.assign(rotating, { privateKey: other.privateKey, certificate: other.certificate, certificateDer: other.certificateDer, chain: other.chain });
    const content = randomBytes(64);
    const after = await createCadesSignature(content, rotating);
    expect(essCertificateHash(after.der)).toEqual(createHash('sha256').update(other.certificateDer).digest());
    expect(carriedCertificates(after.der)).toEqual(carriedOf(other));
    expect(after.der.equals(await cmsFromScratch(content, rotating))).toBe(true);
  });

  it('are built again when a certificate joins the chain in place', async () => {
    const growing: SigningIdentity = { ...identity, chain: [] };
    await createCadesSignature(randomBytes(64), growing);
    growing.chain.push(other.certificate);
    const content = randomBytes(64);
    const cms = await createCadesSignature(content, growing);
    expect(carriedCertificates(cms.der)).toEqual([identity.certificateDer, other.certificateDer]);
    expect(cms.der.equals(await cmsFromScratch(content, growing))).toBe(true);
  });

  it('are kept per identity: two identities sealing in turn each carry their own certificate', async () => {
    const a = await createCadesSignature(randomBytes(64), identity);
    const b = await createCadesSignature(randomBytes(64), other);
    const again = await createCadesSignature(randomBytes(64), identity);
    expect(carriedCertificates(a.der)).toEqual(carriedOf(identity));
    expect(carriedCertificates(b.der)).toEqual(carriedOf(other));
    expect(carriedCertificates(again.der)).toEqual(carriedOf(identity));
  });
});

/** The certificates a CMS of `identity` carries: its own, then its chain (the local root of a generated one). */
function carriedOf(identity: SigningIdentity): Buffer[] {
  return [identity.certificateDer, ...identity.chain.map((cert) => Buffer.from(cert.toSchema().toBER()))];
}
