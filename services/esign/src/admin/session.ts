import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The dashboard's browser session: a cookie naming the superadmin key id and an expiry,
 * signed with HMAC-SHA256 (ESIGN_SESSION_SECRET, or a random secret per process). No key is
 * ever in a cookie or a URL; the key named is checked to be active at every request. Forms
 * carry a CSRF token derived from the session.
 */
export const SESSION_COOKIE = 'esign_admin';
export const SESSION_TTL_MS = 30 * 60_000;

export function createSessions(secret: Buffer = randomBytes(32), clock: () => Date = () => new Date()) {
  const mac = (value: string) => createHmac('sha256', secret).update(value).digest('base64url');
  const equal = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  return {
    issue(keyId: string): string {
      const value = `${keyId}.${clock().getTime() + SESSION_TTL_MS}`;
      return `${value}.${mac(value)}`;
    },
    /** The key id of a valid, unexpired session cookie, or null. */
    read(cookie: string | undefined): string | null {
      const parts = cookie?.split('.') ?? [];
      if (parts.length !== 3) return null;
      const [keyId, expires, signature] = parts as [string, string, string];
      if (!equal(signature, mac(`${keyId}.${expires}`))) return null;
      return Number(expires) > clock().getTime() ? keyId : null;
    },
    csrfToken: (cookie: string) => mac(`csrf:${cookie}`),
    checkCsrf(cookie: string | undefined, token: unknown): boolean {
      return typeof cookie === 'string' && typeof token === 'string' && equal(token, mac(`csrf:${cookie}`));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;

/** The value of one cookie of a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}
