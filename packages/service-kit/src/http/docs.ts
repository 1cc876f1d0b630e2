import { dirname } from 'node:path';
import type { Router } from 'express';
import { escapeHtml } from './escape-html';

/**
 * `/openapi.json` and a human page at `/docs` (Swagger UI served from the
 * swagger-ui-dist package, so it works without internet access).
 */
export function docsRouter(document: () => object, title: string): Router {
  const express: typeof import('express') = require('express');
  const router = express.Router();
  let cached: object | undefined;
  router.get('/openapi.json', (_req, res) => {
    cached ??= document();
    res.json(cached);
  });
  const assets = dirname(require.resolve('swagger-ui-dist/package.json'));
  router.use('/docs/assets', express.static(assets, { index: false, maxAge: '1d' }));
  router.get('/docs', (_req, res) => {
    res.type('html').send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — API documentation</title>
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
<noscript><p>This page needs JavaScript. The raw document is at <a href="openapi.json">openapi.json</a>.</p></noscript>
<div id="swagger-ui"></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>`);
  });
  // Separate file rather than an inline script, so a strict CSP (script-src 'self') works.
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(
      "window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n",
    );
  });
  return router;
}
