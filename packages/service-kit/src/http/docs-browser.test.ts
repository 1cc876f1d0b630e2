import type { Server } from 'node:http';
import express from 'express';
import { z } from 'zod';
import { chromium, type Browser } from 'playwright-core';
import { esignEnvelope } from '@firma-riesgo/errors';
import { createLogger } from '../logger';
import { createMetrics } from '../metrics';
import { createHttpApp } from './create-app';
import { docsRouter } from './docs';
import { listenHttp } from './listen';
import { generateOpenApiDocument, OpenAPIRegistry } from './openapi';
import { defineRoute } from './route';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

describe('/docs under the strict Content-Security-Policy, in a real browser (Debian chromium)', () => {
  let server: Server;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    const http = createHttpApp({ logger: createLogger({ service: 'docs-test', level: 'silent' }), metrics: createMetrics('docs-test'), envelope: esignEnvelope, jsonLimit: '1kb', trustedProxies: [] });
    const registry = new OpenAPIRegistry();
    const router = express.Router();
    defineRoute(router, registry, { method: 'get', path: '/widgets', operationId: 'listWidgets', summary: 'List the widgets', tags: ['widgets'], query: z.object({ q: z.string().optional() }), responses: { 200: { description: 'ok' } }, handler: () => [] });
    http.app.use(router);
    http.app.use(docsRouter(() => generateOpenApiDocument(registry, { title: 'docs-test', version: '1.0.0', description: 'test' }), 'docs-test'));
    ({ server, url } = await listenHttp(http.finish(), 0, '127.0.0.1'));
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  it('renders Swagger UI with its operations and no policy violation', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
    });
    const res = await page.goto(`${url}/docs`);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(res?.headers()['x-frame-options']).toBe('DENY');
    await page.getByText('List the widgets').click();
    await page.getByRole('button', { name: 'Try it out' }).click();
    await page.getByRole('button', { name: 'Execute' }).click();
    const status = page.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor();
    expect(await status.textContent()).toContain('200');
    expect(violations).toEqual([]);
    await page.close();
  });
});
