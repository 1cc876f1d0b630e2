import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM as esign stores its secrets at rest (the self-signed sealing identity, outbox
 * bodies): FORMAT (1 byte) ‖ IV (12) ‖ tag (16) ‖ ciphertext. The additional data binds a
 * ciphertext to its place (a row's id and recipient), so one cannot be moved to another.
 * The tag is always 16 bytes: a shortened one is refused, never accepted as a weaker check.
 */
const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

export class SealedBytesError extends Error {
  constructor(
    readonly reason: 'format' | 'key',
    message: string,
  ) {
    super(message);
    this.name = 'SealedBytesError';
  }
}

export function sealBytes(key: Buffer, plain: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ct = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), ct]);
}

/** Throws SealedBytesError for an unknown format, a wrong key, other additional data or altered bytes. */
export function openBytes(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  if (sealed.length < HEADER_BYTES || sealed[0] !== FORMAT) throw new SealedBytesError('format', 'unknown format');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 1 + IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(sealed.subarray(1 + IV_BYTES, HEADER_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]);
  } catch {
    throw new SealedBytesError('key', 'the key does not open it (another key, or altered bytes)');
  }
}
