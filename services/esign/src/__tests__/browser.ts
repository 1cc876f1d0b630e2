import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * Debian's Chromium for the page tests (never a downloaded browser), started as this
 * machine needs: no sandbox as root, and no background networking, which the closed
 * network would refuse.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/**
 * axe-core's WCAG 2.1 A and AA violations of the page, as `id (impact)`. Evaluated through
 * the DevTools protocol, which the page's CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(require('axe-core').source as string);
  const result = await page.evaluate<{ violations: { id: string; impact: string }[] }>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })",
  );
  return result.violations.map((v) => `${v.id} (${v.impact})`);
}
