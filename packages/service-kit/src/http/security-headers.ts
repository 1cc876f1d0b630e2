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
 * helmet's headers on every response, JSON included: `nosniff`, the CSP above,
 * `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and the cross-origin isolation
 * headers. HSTS is left to the TLS-terminating gateway, which knows whether the site is
 * HTTPS-only.
 *
 * The policy is static, so helmet runs once, at start-up, against a recording response;
 * each request then gets the recorded headers set (and removed) in the same order,
 * instead of a dozen helmet middlewares per request.
 */
export function securityHeaders(): RequestHandler {
  const helmet: typeof import('helmet').default = require('helmet');
  const steps = recordHeaders(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: DEFAULT_CSP },
      strictTransportSecurity: false,
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
    }),
  );
  return (_req, res, next) => {
    for (const [name, value] of steps) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

/** What a header middleware does to any response: `[name, value]` to set, `[name, undefined]` to remove. */
type HeaderStep = readonly [name: string, value: string | undefined];

function recordHeaders(middleware: RequestHandler): HeaderStep[] {
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`security header ${name} is not a fixed string`);
      steps.push([name, value]);
      return recorder;
    },
    removeHeader(name: string) {
      steps.push([name, undefined]);
    },
  };
  let called = false;
  middleware({ method: 'GET', url: '/', headers: {} } as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
    called = true;
  });
  if (!called) throw new Error('the security header middleware did not finish synchronously');
  return steps;
}
