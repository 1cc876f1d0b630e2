import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Signing codes: six random digits, emailed, and stored only as `hmac1:` + hex
 * HMAC-SHA-256 under a server key (at-rest/keys.ts) over the request id and the code. An
 * unkeyed hash of a 6-digit code is reversed by trying all 10⁶ codes; this one cannot be
 * tried without the key, which is never in the database.
 */
const PREFIX = 'hmac1:';

export function newOtpCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * Whether a stored value is a code hash this version can check. Anything else (the unkeyed
 * SHA-256 of earlier versions, or the migration's marker for it) counts as an expired code:
 * the signee asks for a new one.
 */
export function isKeyedOtpHash(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export interface OtpCodes {
  hash(requestId: string, code: string): string;
  /** Constant-time comparison; false for a hash of another format. */
  matches(stored: string, requestId: string, code: string): boolean;
}

export function createOtpCodes(key: Buffer): OtpCodes {
  const mac = (requestId: string, code: string) => createHmac('sha256', key).update(`${requestId}:${code}`).digest();
  return {
    hash: (requestId, code) => `${PREFIX}${mac(requestId, code).toString('hex')}`,
    matches(stored, requestId, code) {
      if (!isKeyedOtpHash(stored)) return false;
      const expected = Buffer.from(stored.slice(PREFIX.length), 'hex');
      const given = mac(requestId, code);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
