/**
 * The API key in an Authorization header: `Bearer <key>` (scheme in any case,
 * any amount of whitespace), or the bare key, which older clients send. Null when
 * there is no key, or when the header uses another scheme (`Basic xyz`), so that
 * credentials meant for something else are never taken for a key.
 */
export function parseAuthorizationHeader(value: string | undefined): string | null {
  const parts = (value ?? '').trim().split(/\s+/);
  const [first, second] = parts;
  if (!first || parts.length > 2) return null;
  if (second === undefined) {
    return first.toLowerCase() === 'bearer' ? null : first;
  }
  return first.toLowerCase() === 'bearer' ? second : null;
}
