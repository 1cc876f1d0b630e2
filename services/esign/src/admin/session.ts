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
  // Compared as bytes: two strings of one length differ in bytes when either holds multibyte
  // characters, and timingSafeEqual throws on buffers of different lengths.
  const equal = (a: string, b: string) => {
    const [x, y] = [Buffer.from(a), Buffer.from(b)];
    return x.length === y.length && timingSafeEqual(x, y);
  };
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

/** The value of one cookie of a Cookie header; a malformed percent-encoding counts as no cookie. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k !== name) continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      return undefined; // `%E0` and the like: a forged or mangled cookie, never a session
    }
  }
  return undefined;
}

/**
 * Whether the session cookie is `Secure`: when the request came over https (req.secure, which
 * behind TRUSTED_PROXIES follows the gateway's X-Forwarded-Proto) or whenever the public URL is
 * https, since TLS usually ends at an ingress in front of the service.
 */
export function secureCookie(publicUrl: string, requestSecure: boolean): boolean {
  return requestSecure || publicUrl.startsWith('https:');
}
