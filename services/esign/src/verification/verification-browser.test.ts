import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { sealPdf } from '@firma-riesgo/pdf-core';
import { samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** /verificar as a person uses it, in Debian Chromium: the form, an upload through it, the report; axe on both. */
describe('public verification in a real browser', () => {
  let env: TestEsign;
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'verify-browser-'));

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_verify_browser' });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await env?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function axe(page: import('playwright-core').Page): Promise<string[]> {
    await page.evaluate(require('axe-core').source as string);
    const result = await page.evaluate<{ violations: { id: string; impact: string }[] }>(
      "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })",
    );
    return result.violations.map((v) => `${v.id} (${v.impact})`);
  }

  it('checks an uploaded sealed PDF through the plain form, and both pages pass axe', async () => {
    const sealed = (await sealPdf(await samplePdf(), { identity: env.rt.signing.identity, signingTime: new Date('2026-05-01T09:00:00Z'), reason: 'x', fieldName: 'sello' })).pdf;
    const file = join(dir, 'firmado.pdf');
    writeFileSync(file, sealed);
    // the page has no script; axe itself needs JavaScript to run
    const context = await browser.newContext({ locale: 'es-ES' });
    const page = await context.newPage();
    try {
      await page.goto(`${env.rt.url}/verificar`);
      expect(await axe(page)).toEqual([]);
      await page.setInputFiles('#file', file);
      await page.getByRole('button', { name: 'Comprobar' }).click();
      await page.waitForLoadState('load');
      const text = await page.locator('main').textContent();
      expect(text).toContain('sello');
      expect(await axe(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
