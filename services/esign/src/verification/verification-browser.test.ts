import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { axeViolations, launchChromium } from '../__tests__/browser';
import { sealPdf } from '@firma-riesgo/pdf-core';
import { samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';

/** /verificar as a person uses it, in Debian Chromium: the form, an upload through it, the report; axe on both. */
describe('public verification in a real browser', () => {
  let env: TestEsign;
  let browser: Browser;
  const dir = mkdtempSync(join(tmpdir(), 'verify-browser-'));

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_verify_browser' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await env?.close();
    rmSync(dir, { recursive: true, force: true });
  });


  it('checks an uploaded sealed PDF through the plain form, and both pages pass axe', async () => {
    const sealed = (await sealPdf(await samplePdf(), { identity: env.rt.signing.identity, signingTime: new Date('2026-05-01T09:00:00Z'), reason: 'x', fieldName: 'sello' })).pdf;
    const file = join(dir, 'firmado.pdf');
    writeFileSync(file, sealed);
    // the page has no script; axe itself needs JavaScript to run
    const context = await browser.newContext({ locale: 'es-ES' });
    const page = await context.newPage();
    try {
      await page.goto(`${env.rt.url}/verificar`);
      expect(await axeViolations(page)).toEqual([]);
      await page.setInputFiles('#file', file);
      await page.getByRole('button', { name: 'Comprobar' }).click();
      await page.waitForLoadState('load');
      const text = await page.locator('main').textContent();
      expect(text).toContain('sello');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('judges at the date and time typed in the form’s optional field (UTC), still without a script', async () => {
    const sealed = (await sealPdf(await samplePdf(), { identity: env.rt.signing.identity, signingTime: new Date(), reason: 'x', fieldName: 'sello-at' })).pdf;
    const file = join(dir, 'firmado-at.pdf');
    writeFileSync(file, sealed);
    // A day past the seal certificate's expiry: a B-B seal has nothing proving it came earlier.
    const later = new Date(env.rt.signing.identity.notAfter.getTime() + 24 * 3600 * 1000);
    later.setUTCMilliseconds(0);
    const context = await browser.newContext({ locale: 'en-GB', javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${env.rt.url}/verificar`);
      await page.setInputFiles('#file', file);
      await page.getByLabel('Validation date and time (optional, UTC)').fill(later.toISOString().slice(0, 19));
      await page.getByRole('button', { name: 'Check' }).click();
      await page.waitForLoadState('load');
      expect(await page.locator(`main time[datetime="${later.toISOString()}"]`).count()).toBeGreaterThan(0);
      expect(await page.locator('main').textContent()).toContain('INDETERMINATE / OUT_OF_BOUNDS_NO_POE');
    } finally {
      await context.close();
    }
  });
});
