import { generateKeyPairSync, randomBytes, webcrypto } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import forge from 'node-forge';
import * as pkijs from 'pkijs';
import { pkijsEngine } from './crypto-engine';

/** The key and certificate that seal PDFs, ready for WebCrypto and pkijs. */
export interface SigningIdentity {
  privateKey: webcrypto.CryptoKey;
  certificate: pkijs.Certificate;
  certificateDer: Buffer;
  /** Further certificates of the PKCS#12 (intermediates), carried in every CMS. */
  chain: pkijs.Certificate[];
  /** The certificate's subject common name. */
  commonName: string;
  selfSigned: boolean;
  notAfter: Date;
}

export class SigningIdentityError extends Error {}

/**
 * Reads a PKCS#12 with node-forge (which understands the bag formats real CAs ship)
 * and hands the key to WebCrypto as PKCS#8. RSA keys only: forge parses no others.
 */
export async function loadPkcs12(p12: Buffer, password: string | undefined): Promise<SigningIdentity> {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
    parsed = forge.pkcs12.pkcs12FromAsn1(asn1, false, password ?? '');
  } catch (err) {
    throw new SigningIdentityError(`Cannot read the PKCS#12 (wrong password or not a PKCS#12): ${(err as Error).message}`);
  }
  const keyBags = [
    ...(parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(parsed.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ];
  const key = keyBags.find((bag) => bag.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key || typeof key.n === 'undefined') throw new SigningIdentityError('The PKCS#12 holds no RSA private key');
  const certs = (parsed.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [])
    .map((bag) => bag.cert)
    .filter((cert): cert is forge.pki.Certificate => Boolean(cert));
  const own = certs.find((cert) => (cert.publicKey as forge.pki.rsa.PublicKey).n?.equals(key.n));
  if (!own) throw new SigningIdentityError('The PKCS#12 holds no certificate for its private key');

  const pkcs8 = forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key))).getBytes();
  const privateKey = await webcrypto.subtle.importKey('pkcs8', Buffer.from(pkcs8, 'binary'), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const toPkijs = (cert: forge.pki.Certificate) => {
    const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
    return { der, cert: pkijs.Certificate.fromBER(der) };
  };
  const signer = toPkijs(own);
  pkijsEngine();
  return {
    privateKey,
    certificate: signer.cert,
    certificateDer: signer.der,
    chain: certs.filter((cert) => cert !== own).map((cert) => toPkijs(cert).cert),
    commonName: String(own.subject.getField('CN')?.value ?? ''),
    selfSigned: own.isIssuer(own),
    notAfter: own.validity.notAfter,
  };
}

export interface SelfSignedOptions {
  commonName: string;
  organization?: string;
  validityYears?: number;
}

/**
 * A new RSA-2048 key (generated natively: forge's JavaScript keygen takes seconds) and a
 * self-signed certificate for document signing, as a PKCS#12 with an empty password (the file itself is kept 0600).
 */
export function generateSelfSignedPkcs12(options: SelfSignedOptions): Buffer {
  const { privateKey: pem } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // Positive and 16 bytes: RFC 5280 wants serials unique and at most 20 octets.
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x10;
  cert.serialNumber = serial.toString('hex');
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 60 * 60 * 1000);
  cert.validity.notAfter = new Date(now + (options.validityYears ?? 10) * 365 * 24 * 60 * 60 * 1000);
  const subject = [{ name: 'commonName', value: options.commonName }];
  if (options.organization) subject.push({ name: 'organizationName', value: options.organization });
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'extKeyUsage', emailProtection: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(key, [cert], '', { algorithm: '3des', friendlyName: options.commonName, generateLocalKeyId: true });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary');
}

/**
 * The self-signed identity kept at `path`, generated on first use. Several processes (API
 * and workers) may start at once: the file appears atomically (hard link of a complete
 * temp file, which fails if another process won), so all of them end up with one key.
 */
export async function ensureSelfSignedIdentity(path: string, options: SelfSignedOptions): Promise<SigningIdentity> {
  try {
    return await loadPkcs12(await readFile(path), undefined);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, generateSelfSignedPkcs12(options), { mode: 0o600 });
  try {
    await link(temp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  return loadPkcs12(await readFile(path), undefined);
}

export interface SigningIdentitySource {
  /** A PKCS#12 from a CA (or the operator's own); when unset, the self-signed identity below. */
  p12Path?: string;
  p12Password?: string;
  /** Where the self-signed identity is kept (generated on first use) when there is no `p12Path`. */
  selfSignedPath: string;
  selfSigned: SelfSignedOptions;
}

/**
 * A service's sealing identity: the PKCS#12 at `p12Path`, or a self-signed one kept at
 * `selfSignedPath`. Services call it at start-up, so a bad path or password stops the process at once.
 */
export async function loadSigningIdentity(source: SigningIdentitySource): Promise<SigningIdentity> {
  if (source.p12Path) return loadPkcs12(await readFile(source.p12Path), source.p12Password);
  return ensureSelfSignedIdentity(source.selfSignedPath, source.selfSigned);
}
