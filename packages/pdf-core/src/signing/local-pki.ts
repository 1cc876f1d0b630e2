import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

/** RFC 9336 id-kp-documentSigning: the extended key usage of a certificate that seals documents. */
export const OID_KP_DOCUMENT_SIGNING = '1.3.6.1.5.5.7.3.36';
const OID_AIA = '1.3.6.1.5.5.7.1.1';
const OID_AD_OCSP = '1.3.6.1.5.5.7.48.1';
const OID_AD_CA_ISSUERS = '1.3.6.1.5.5.7.48.2';

/** Where the service publishes its local root's revocation data (ESIGN_PUBLIC_URL + these paths). */
export const LOCAL_PKI_PATHS = { ocsp: '/pki/ocsp', crl: '/pki/root.crl', root: '/pki/root.crt' } as const;

export interface SelfSignedOptions {
  commonName: string;
  organization?: string;
  validityYears?: number;
  /**
   * The service's public base URL: the seal certificate then names the OCSP responder, the
   * root (AIA) and the CRL (distribution point) under `{url}/pki/`, so validators and the
   * B-LT seal itself can fetch its revocation status. Without it no such pointers are written.
   */
  pkiBaseUrl?: string;
}

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

function rsaKey(): forge.pki.rsa.PrivateKey {
  // Generated natively: forge's JavaScript keygen takes seconds.
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
}

/** Positive and 16 bytes: RFC 5280 wants serials unique and at most 20 octets. */
function serialHex(): string {
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x10;
  return serial.toString('hex');
}

function uriSequence(entries: [string, string][]): forge.asn1.Asn1 {
  const { asn1 } = forge;
  return asn1.create(
    asn1.Class.UNIVERSAL,
    asn1.Type.SEQUENCE,
    true,
    entries.map(([method, uri]) =>
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(method).getBytes()),
        // GeneralName uniformResourceIdentifier [6] IA5String
        asn1.create(asn1.Class.CONTEXT_SPECIFIC, 6, false, uri),
      ]),
    ),
  );
}

function certificate(subjectKey: forge.pki.rsa.PrivateKey, subject: forge.pki.CertificateField[], validityMs: number) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(subjectKey.n, subjectKey.e);
  cert.serialNumber = serialHex();
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now + validityMs);
  cert.setSubject(subject);
  return cert;
}

/**
 * A new two-level chain for the service's own seal: a local root (CA, keyCertSign and
 * cRLSign) and a seal certificate under it with key usage digitalSignature and
 * nonRepudiation and extended key usage id-kp-documentSigning. Returned as a PKCS#12 with an
 * empty password (the file or row holding it is protected) that keeps both keys: the
 * root's signs the service's OCSP responses and CRLs.
 */
export function generateSelfSignedPkcs12(options: SelfSignedOptions): Buffer {
  const years = options.validityYears ?? 10;
  const org = options.organization ? [{ name: 'organizationName', value: options.organization }] : [];
  const rootKey = rsaKey();
  const root = certificate(rootKey, [{ name: 'commonName', value: `${options.commonName} root` }, ...org], (years + 5) * YEAR_MS);
  root.setIssuer(root.subject.attributes);
  root.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  root.sign(rootKey, forge.md.sha256.create());

  const sealKey = rsaKey();
  const seal = certificate(sealKey, [{ name: 'commonName', value: options.commonName }, ...org], years * YEAR_MS);
  seal.setIssuer(root.subject.attributes);
  const extensions: object[] = [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'extKeyUsage', [OID_KP_DOCUMENT_SIGNING]: true },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: root.generateSubjectKeyIdentifier().getBytes() },
  ];
  if (options.pkiBaseUrl) {
    const base = options.pkiBaseUrl.replace(/\/+$/, '');
    extensions.push(
      {
        id: OID_AIA,
        value: uriSequence([
          [OID_AD_OCSP, `${base}${LOCAL_PKI_PATHS.ocsp}`],
          [OID_AD_CA_ISSUERS, `${base}${LOCAL_PKI_PATHS.root}`],
        ]),
      },
      { name: 'cRLDistributionPoints', altNames: [{ type: 6, value: `${base}${LOCAL_PKI_PATHS.crl}` }] },
    );
  }
  seal.setExtensions(extensions);
  seal.sign(rootKey, forge.md.sha256.create());
  return twoKeyPkcs12([sealKey, [seal, root]], [rootKey, []]);
}

/** Which keys a PKCS#12 holds (with the certificates that go with the first). */
type KeyEntry = [forge.pki.rsa.PrivateKey, forge.pki.Certificate[]];

/**
 * A PKCS#12 holding several keys: forge writes one key a file, so each is written alone
 * (no MAC) and their AuthenticatedSafe contents joined under one MAC (SHA-1 HMAC, as
 * forge and OpenSSL write by default).
 */
function twoKeyPkcs12(...entries: KeyEntry[]): Buffer {
  const { asn1 } = forge;
  const contents: forge.asn1.Asn1[] = [];
  for (const [key, certs] of entries) {
    const pfx = forge.pkcs12.toPkcs12Asn1(key, certs, '', { algorithm: '3des', useMac: false, generateLocalKeyId: certs.length > 0 });
    const authSafe = (((pfx.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!;
    const safe = asn1.fromDer(authSafe.value as string);
    contents.push(...(safe.value as forge.asn1.Asn1[]));
  }
  const safe = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, contents);
  const safeDer = asn1.toDer(safe).getBytes();
  const salt = forge.random.getBytesSync(8);
  const count = 2048;
  const macKey = forge.pkcs12.generateKey('', forge.util.createBuffer(salt), 3, count, 20);
  const hmac = forge.hmac.create();
  hmac.start(forge.md.sha1.create(), macKey);
  hmac.update(safeDer);
  const macData = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(forge.pki.oids.sha1!).getBytes()),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
      ]),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, hmac.getMac().getBytes()),
    ]),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, salt),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(count).getBytes()),
  ]);
  const pfx = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(3).getBytes()),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(forge.pki.oids.data!).getBytes()),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, safeDer)]),
    ]),
    macData,
  ]);
  return Buffer.from(asn1.toDer(pfx).getBytes(), 'binary');
}
