import helmet from 'helmet';
import type { RequestHandler } from 'express';

/**
 * The policy of every response that does not set its own. Strict: scripts, styles,
 * fonts and fetches only from the service itself (Swagger UI at /docs is served
 * locally and started from a file, not an inline script), images also as data: URIs
 * (Swagger UI's icons), no plugins, no framing, forms only back to the service.
 * Pages with nonces (the signee page) replace it with their own stricter policy.
 */
export const DEFAULT_CSP = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
};

/**
 * helmet on every response, JSON included: `nosniff`, the CSP above, `X-Frame-Options:
 * DENY`, `Referrer-Policy: no-referrer` and the cross-origin isolation headers. HSTS is
 * left to the TLS-terminating gateway, which knows whether the site is HTTPS-only.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: DEFAULT_CSP },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
}
