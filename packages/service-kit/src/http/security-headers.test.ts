import express from 'express';
import request from 'supertest';
import { securityHeaders } from './security-headers';

// The headers helmet 8 sent on every response with our options before they were
// precomputed (captured from the frame of 2026-11-24); the set must not change.
const EXPECTED = {
  'content-security-policy':
    "default-src 'none';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';connect-src 'self';base-uri 'none';form-action 'self';frame-ancestors 'none';object-src 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

function appWith(before?: express.RequestHandler) {
  const app = express();
  if (before) app.use(before);
  app.use(securityHeaders());
  app.get('/', (_req, res) => void res.json({ ok: true }));
  return app;
}

describe('security headers', () => {
  it('sends exactly the helmet set, on every response', async () => {
    const app = appWith();
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/');
      const security = Object.fromEntries(Object.entries(res.headers).filter(([name]) => name in EXPECTED || /^(strict-transport|cross-origin-embedder)/.test(name)));
      expect(security).toEqual(EXPECTED);
    }
  });

  it('still removes an X-Powered-By set before it, as helmet did', async () => {
    const res = await request(appWith((_req, res, next) => (res.setHeader('X-Powered-By', 'Express'), next()))).get('/');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
