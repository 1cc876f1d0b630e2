import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MIN_BYTES = 32;

/**
 * Prefixes are lowercase words joined and terminated by underscores (`esk_`,
 * `pk_live_`). The random part is base62, so it never contains `_`: the last
 * underscore of a key always marks where its prefix ends.
 */
const PREFIX = /^[a-z0-9]+(?:_[a-z0-9]+)*_$/;

/** Encodes the bytes as a fixed-length base62 string, so every key of a size has the same length. */
function toBase62(bytes: Buffer): string {
  const length = Math.ceil((bytes.length * 8) / Math.log2(62));
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE62.charAt(Number(value % 62n)) + out;
    value /= 62n;
  }
  return out;
}

/**
 * A new secret key: `prefix` followed by `bytes` random bytes in base62 (43
 * characters for the default 32 bytes). Base62 rather than base64url keeps keys
 * selectable with a double click and free of `-`/`_`.
 */
export function generateKey(prefix: string, bytes = MIN_BYTES): string {
  if (!PREFIX.test(prefix)) {
    throw new TypeError(`Key prefix must be lowercase words ending in "_", got "${prefix}"`);
  }
  if (!Number.isInteger(bytes) || bytes < MIN_BYTES) {
    throw new RangeError(`A key needs at least ${MIN_BYTES} random bytes, got ${bytes}`);
  }
  return prefix + toBase62(randomBytes(bytes));
}

/**
 * What is stored instead of the key. A plain SHA-256 is enough here, unlike for
 * passwords: the key carries 256 random bits, so there is nothing to brute-force
 * and a fast hash lets every request be checked with one indexed lookup.
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * Constant-time string comparison. Both sides are hashed first because
 * `timingSafeEqual` needs equal lengths; comparing fixed-size digests means
 * neither the content nor the length of the secret shows in the timing.
 */
export function safeEqual(a: string, b: string): boolean {
  const digestA = createHash('sha256').update(a, 'utf8').digest();
  const digestB = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(digestA, digestB);
}

/**
 * The part of a key that may be shown in listings so its owner can recognise it:
 * the prefix and the first `visible` random characters. At most a quarter of the
 * random part is ever shown, so a short or unexpected key is not revealed whole.
 */
export function displayPrefix(key: string, visible = 8): string {
  if (!Number.isInteger(visible) || visible < 0) {
    throw new RangeError(`visible must be a non-negative integer, got ${visible}`);
  }
  const cut = key.lastIndexOf('_') + 1;
  const secret = key.slice(cut);
  return key.slice(0, cut) + secret.slice(0, Math.min(visible, Math.floor(secret.length / 4)));
}
