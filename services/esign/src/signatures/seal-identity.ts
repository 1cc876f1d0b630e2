import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import {
  generateSelfSignedPkcs12,
  loadPkcs12,
  loadSigningIdentity,
  SigningIdentityError,
  type SelfSignedOptions,
  type SigningIdentity,
} from '@firma-riesgo/pdf-core';
import type { Logger } from '@firma-riesgo/service-kit';
import { openBytes, sealBytes, SealedBytesError } from '../at-rest/sealed-bytes';
import type { EsignConfig } from '../config';
import type { EsignDb } from '../db';
import { signingIdentity } from './tables';

const ROW = 'seal';
const AAD = Buffer.from('esign signing_identity seal v1');

/** Hex SHA-256 of the DER certificate: what `/health` reports as `signing.certificate_sha256`. */
export function certificateSha256(identity: SigningIdentity): string {
  return createHash('sha256').update(identity.certificateDer).digest('hex');
}

/** Where an instance kept (and, without SIGNING_IDENTITY_KEY, still keeps) its generated identity. */
export function selfSignedPath(config: EsignConfig): string {
  return join(config.dataDir, 'esign', 'signing', 'self-signed-seal.p12');
}

/**
 * The service's sealing identity, loaded at start-up by every role:
 * - SIGNING_P12_PATH: that PKCS#12 (the recommended production set-up);
 * - else SIGNING_IDENTITY_KEY: one self-signed identity for every instance, kept in the
 *   database's `signing_identity` row, encrypted under that key. The first instance to start
 *   inserts it (the file an older version generated under DATA_DIR if there is one, so
 *   documents keep verifying with the same certificate; a new one otherwise); racing
 *   instances insert with ON CONFLICT DO NOTHING and all read back the one that won;
 * - else: a self-signed identity generated on the first start under DATA_DIR/esign/signing
 *   (the embedded quick start; the config refuses shared storage without one of the above).
 */
export async function loadSealIdentity(config: EsignConfig, db: EsignDb, logger?: Logger): Promise<SigningIdentity> {
  const { p12Path, p12Password, identityKey } = config.signing;
  // A local root and a seal certificate under it, whose AIA and CRL distribution point name
  // this service's /pki endpoints. An identity generated before keeps sealing as it is: its
  // self-signed certificate is its own trust anchor, which needs no revocation data.
  const selfSigned: SelfSignedOptions = {
    commonName: 'esign service seal (self-signed)',
    organization: new URL(config.publicUrl).hostname,
    pkiBaseUrl: config.publicUrl,
  };
  if (p12Path || !identityKey) {
    return loadSigningIdentity({ p12Path, p12Password, selfSignedPath: selfSignedPath(config), selfSigned });
  }
  return sharedSelfSignedIdentity(db, identityKey, selfSignedPath(config), selfSigned, logger);
}

async function sharedSelfSignedIdentity(db: EsignDb, key: Buffer, legacyPath: string, options: SelfSignedOptions, logger?: Logger): Promise<SigningIdentity> {
  const stored = await readStored(db);
  if (stored) return openStored(stored, key);

  const legacy = await readFile(legacyPath).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  const p12 = legacy ?? generateSelfSignedPkcs12(options);
  // Parsed before it is stored: a broken file stops this start instead of every later one.
  const candidate = await loadPkcs12(p12, undefined);
  const inserted = await db
    .insert(signingIdentity)
    .values({ name: ROW, p12Encrypted: encrypt(key, p12), certificateSha256: certificateSha256(candidate), origin: legacy ? 'imported' : 'generated' })
    .onConflictDoNothing()
    .returning({ name: signingIdentity.name });
  if (inserted.length > 0) {
    logger?.info(
      { certificate_sha256: certificateSha256(candidate), origin: legacy ? 'imported' : 'generated', ...(legacy ? { file: legacyPath } : {}) },
      legacy ? 'sealing identity imported from DATA_DIR into the database' : 'sealing identity generated and stored in the database',
    );
    return candidate;
  }
  // Another instance won the race: seal with its identity.
  const winner = await readStored(db);
  if (!winner) throw new SigningIdentityError('the signing_identity row vanished while starting');
  return openStored(winner, key);
}

async function readStored(db: EsignDb) {
  const [row] = await db.select().from(signingIdentity).where(eq(signingIdentity.name, ROW));
  return row;
}

async function openStored(row: { p12Encrypted: Buffer; certificateSha256: string }, key: Buffer): Promise<SigningIdentity> {
  const identity = await loadPkcs12(decrypt(key, row.p12Encrypted), undefined);
  if (certificateSha256(identity) !== row.certificateSha256) throw new SigningIdentityError('the stored sealing identity does not match its certificate_sha256');
  return identity;
}

function encrypt(key: Buffer, plain: Buffer): Buffer {
  return sealBytes(key, plain, AAD);
}

function decrypt(key: Buffer, sealed: Buffer): Buffer {
  try {
    return openBytes(key, sealed, AAD);
  } catch (err) {
    if (err instanceof SealedBytesError && err.reason === 'format') throw new SigningIdentityError('the stored sealing identity has an unknown format');
    throw new SigningIdentityError(
      'SIGNING_IDENTITY_KEY does not open the sealing identity stored in the database (it must stay the key it was stored with)',
    );
  }
}
