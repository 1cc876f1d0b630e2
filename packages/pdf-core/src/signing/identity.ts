import { randomBytes, webcrypto } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import forge from 'node-forge';
import * as pkijs from 'pkijs';
import { pkijsEngine } from './crypto-engine';
import { generateSelfSignedPkcs12, type SelfSignedOptions } from './local-pki';

export { generateSelfSignedPkcs12, type SelfSignedOptions } from './local-pki';

/** The service's own root when it keeps one beside the seal key: it answers OCSP and signs CRLs. */
export interface LocalRoot {
  certificate: pkijs.Certificate;
  certificateDer: Buffer;
  privateKey: webcrypto.CryptoKey;
}

/** The key and certificate that seal PDFs, ready for WebCrypto and pkijs. */
export interface SigningIdentity {
  privateKey: webcrypto.CryptoKey;
  certificate: pkijs.Certificate;
  certificateDer: Buffer;
  /** Further certificates of the PKCS#12 (intermediates), carried in every CMS. */
  chain: pkijs.Certificate[];
  /** The certificate's subject common name. */
  commonName: string;
  /** Not from a CA: a self-signed certificate, or one under the service's own local root. */
  selfSigned: boolean;
  notAfter: Date;
  /** Present when the PKCS#12 also holds the key of the root that issued the seal certificate. */
  localRoot?: LocalRoot;
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
  const keys = keyBags.map((bag) => bag.key as forge.pki.rsa.PrivateKey | undefined).filter((key) => key && typeof key.n !== 'undefined') as forge.pki.rsa.PrivateKey[];
  if (keys.length === 0) throw new SigningIdentityError('The PKCS#12 holds no RSA private key');
  const certs = (parsed.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? [])
    .map((bag) => bag.cert)
    .filter((cert): cert is forge.pki.Certificate => Boolean(cert));
  const paired = keys
    .map((key) => ({ key, cert: certs.find((cert) => (cert.publicKey as forge.pki.rsa.PublicKey).n?.equals(key.n)) }))
    .filter((pair): pair is { key: forge.pki.rsa.PrivateKey; cert: forge.pki.Certificate } => Boolean(pair.cert));
  // The seal is the key whose certificate is not a CA; a kept local root is the other.
  const own = paired.find((pair) => !isCa(pair.cert)) ?? paired[0];
  if (!own) throw new SigningIdentityError('The PKCS#12 holds no certificate for its private key');
  const root = paired.find((pair) => pair !== own && isCa(pair.cert) && own.cert.isIssuer(pair.cert) && pair.cert.isIssuer(pair.cert));

  const toPkijs = (cert: forge.pki.Certificate) => {
    const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
    return { der, cert: pkijs.Certificate.fromBER(der) };
  };
  const signer = toPkijs(own.cert);
  pkijsEngine();
  let localRoot: LocalRoot | undefined;
  if (root && root.cert.verify(own.cert)) {
    const parsedRoot = toPkijs(root.cert);
    localRoot = { certificate: parsedRoot.cert, certificateDer: parsedRoot.der, privateKey: await importRsaKey(root.key) };
  }
  return {
    privateKey: await importRsaKey(own.key),
    certificate: signer.cert,
    certificateDer: signer.der,
    chain: certs.filter((cert) => cert !== own.cert).map((cert) => toPkijs(cert).cert),
    commonName: String(own.cert.subject.getField('CN')?.value ?? ''),
    selfSigned: own.cert.isIssuer(own.cert) || Boolean(localRoot),
    notAfter: own.cert.validity.notAfter,
    ...(localRoot ? { localRoot } : {}),
  };
}

function isCa(cert: forge.pki.Certificate): boolean {
  const ext = cert.getExtension('basicConstraints') as { cA?: boolean } | undefined;
  return Boolean(ext?.cA);
}

async function importRsaKey(key: forge.pki.rsa.PrivateKey): Promise<webcrypto.CryptoKey> {
  const pkcs8 = forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(key))).getBytes();
  return webcrypto.subtle.importKey('pkcs8', Buffer.from(pkcs8, 'binary'), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
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
