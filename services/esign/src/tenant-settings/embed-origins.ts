/**
 * The origins a tenant lets frame its signing pages (`embed_origins` of `/firma/ajustes`):
 * what an origin may be, and its one written form. The form is what the signing page's
 * `Content-Security-Policy: frame-ancestors` lists and what `?origen=` is compared with.
 */

/** At most this many origins per tenant. */
export const MAX_EMBED_ORIGINS = 5;

/** The hosts `http://` is allowed on: loopback, for development. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

/**
 * A CSP host-source's host: letters, digits and hyphens in dot-separated labels (no `*`,
 * no trailing dot). IPv6 literals are not host-sources in CSP, so `[::1]` cannot be listed.
 */
const CSP_HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

export type OriginCheck = { ok: true; origin: string } | { ok: false; reason: string };

/**
 * `https://host[:port]`, or `http://` on 127.0.0.1 or localhost, normalised: scheme and
 * host lowercase, the default port dropped, no path, query, fragment or trailing slash.
 * Anything else (credentials, a path, a wildcard, an IPv6 literal, another scheme) is refused.
 */
export function normaliseEmbedOrigin(input: string): OriginCheck {
  const raw = input.trim();
  if (raw.length === 0 || raw.length > 300) return { ok: false, reason: 'must be an origin of at most 300 characters' };
  if (/[?#\s\\]/.test(raw)) return { ok: false, reason: 'an origin has no query, fragment or spaces' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'must be an origin such as https://app.example.com' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must start with https:// (or http:// on a loopback address)' };
  if (url.username || url.password) return { ok: false, reason: 'an origin has no user name or password' };
  // `https://host` and `https://host/` only: the URL parser reads any other path.
  if (url.pathname !== '/' || !/^https?:\/\/[^/]+\/?$/i.test(raw)) return { ok: false, reason: 'an origin has no path' };
  if (url.hostname.startsWith('[')) return { ok: false, reason: 'IPv6 literals cannot be listed in frame-ancestors; use localhost or 127.0.0.1' };
  if (!CSP_HOST.test(url.hostname)) return { ok: false, reason: 'the host must be a domain name or an IPv4 address (no wildcards)' };
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) return { ok: false, reason: 'http:// only on a loopback address (127.0.0.1, localhost); use https://' };
  return { ok: true, origin: url.origin };
}
