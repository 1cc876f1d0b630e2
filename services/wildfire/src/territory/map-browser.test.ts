import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { shortTempDir, storeReading, testConfig } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { SEVILLA_TENERIFE_NOMENCLATOR } from './__fixtures__/nomenclator-sevilla-tenerife';
import { DANGER_COLOURS } from './map-svg';

/** axe-core's WCAG 2.1 A and AA violations, evaluated through the DevTools protocol (which the page's CSP does not govern). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(require('axe-core').source as string);
  const result = await page.evaluate<{ violations: { id: string; impact: string }[] }>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })",
  );
  return result.violations.map((v) => `${v.id} (${v.impact})`);
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const DAY = '2025-07-19';

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/**
 * The colour Chromium painted at (x, y): a 1×1 PNG screenshot, decoded. With a single
 * pixel every PNG row filter leaves the bytes as they are, so inflating the IDAT data
 * and skipping the filter byte gives the pixel.
 */
async function pixelAt(page: Page, x: number, y: number): Promise<number[]> {
  const png = await page.screenshot({ clip: { x: Math.floor(x), y: Math.floor(y), width: 1, height: 1 } });
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Array.from(inflateSync(Buffer.concat(idat)).subarray(1, 4));
}

/** The territory map (GET /api/v3/m1/territorio, Accept: image/svg+xml) as Debian Chromium renders it. */
describe('the territory map and the /mapa page in Chromium', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_territory_map');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'api', { clock: () => new Date('2025-07-20T10:00:00Z') });
    const file = join(shortTempDir(), 'nomenclator.csv');
    writeFileSync(file, SEVILLA_TENERIFE_NOMENCLATOR);
    await rt.ingest.municipalities(file);
    const codes = SEVILLA_TENERIFE_NOMENCLATOR.split('\n').map((l) => l.split(',')[0]!).filter((c) => /^(41|38)\d{3}$/.test(c));
    // Every municipality low but Sevilla, the one hot municipality: extreme.
    for (const code of codes) await storeReading(rt, code, DAY, code === '41091' ? 57 : 8);
    token = (await rt.tokens.create({ account: 'cecop', type: 'live', scopes: ['risk:read'] })).token;
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await rt?.close();
    await db?.drop();
  });

  it('renders from the API with no other request, and the hot municipality’s point has the extreme class colour', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const url = `${rt.url}/api/v3/m1/territorio?date=${DAY}`;
    // A navigation sends the browser's own Accept: ask for the map as an API client would.
    await page.route(url, (route) => route.continue({ headers: { ...route.request().headers(), accept: 'image/svg+xml', authorization: `Bearer ${token}` } }));
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(await page.evaluate<string>('document.documentElement.localName')).toBe('svg');
    const point = page.locator('circle[data-ine="41091"]');
    expect(await point.locator('title').textContent()).toBe('Sevilla (41091): FWI 57, extremo');
    const [cx, cy] = [Number(await point.getAttribute('cx')), Number(await point.getAttribute('cy'))];
    const low = page.locator('circle[data-ine="41004"]');
    const [lx, ly] = [Number(await low.getAttribute('cx')), Number(await low.getAttribute('cy'))];
    // The page as Chromium painted it: the pixel at each point's centre.
    const pixels = [await pixelAt(page, cx, cy), await pixelAt(page, lx, ly)];
    expect(pixels).toEqual([rgb(DANGER_COLOURS.extreme), rgb(DANGER_COLOURS.low)]);
    expect(requests).toEqual([url]);
    await page.close();
  });

  describe('the /mapa page', () => {
    let testToken: string;
    beforeAll(async () => {
      testToken = (await rt.tokens.create({ account: 'demo', type: 'test', scopes: ['risk:read'] })).token;
    });

    it('asks for a token, keeps it in sessionStorage and never in a URL, and shows the map of the chosen province and day; axe finds nothing; 390 and 1280 px wide', async () => {
      const screenshots = shortTempDir();
      for (const width of [390, 1280]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        const urls: string[] = [];
        const refused: string[] = [];
        page.on('request', (r) => urls.push(r.url()));
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
        });
        const res = await page.goto(`${rt.url}/mapa`);
        expect(res?.headers()['content-security-policy']).toMatch(/script-src 'nonce-[^']+'; style-src 'nonce-[^']+'; connect-src 'self'/);
        expect(await page.inputValue('#date')).toBe('2025-07-20');
        await page.getByLabel('Token de acceso').fill(testToken);
        await page.getByLabel('Provincia').selectOption('38');
        await page.getByLabel('Fecha').fill('2025-07-15');
        await page.getByRole('button', { name: 'Ver mapa' }).click();
        await page.locator('#map svg circle[data-ine="38038"]').waitFor();
        expect(await page.getByRole('status').textContent()).toBe('Mapa cargado: Peligro de incendio forestal: Santa Cruz de Tenerife, 2025-07-15');
        expect(await page.locator('#map svg circle[data-ine]').count()).toBe(54);
        expect(await page.evaluate<string | null>("sessionStorage.getItem('wildfire-token')")).toBe(testToken);
        expect(urls.filter((u) => u.includes(testToken))).toEqual([]);
        expect(page.url()).toBe(`${rt.url}/mapa`);
        expect(await axeViolations(page)).toEqual([]);
        const widths = await page.evaluate<{ scroll: number; client: number }>('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })');
        expect(widths.scroll).toBeLessThanOrEqual(widths.client);
        const shot = await page.screenshot({ path: join(screenshots, `mapa-${width}.png`), fullPage: true });
        expect(shot.length).toBeGreaterThan(10_000);
        expect(refused).toEqual([]);
        await page.close();
      }
    });

    it('keeps the token for the tab after a reload, shows the API’s error message for a bad token, and forgets it on request', async () => {
      const page = await browser.newPage();
      await page.goto(`${rt.url}/mapa`);
      await page.getByLabel('Token de acceso').fill('pk_test_not-a-real-token');
      await page.getByRole('button', { name: 'Ver mapa' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').textContent()).toMatch(/token/i);
      await page.reload();
      expect(await page.inputValue('#token')).toBe('pk_test_not-a-real-token');
      await page.getByRole('button', { name: 'Olvidar el token' }).click();
      expect(await page.evaluate<string | null>("sessionStorage.getItem('wildfire-token')")).toBeNull();
      expect(await page.inputValue('#token')).toBe('');
      await page.close();
    });
  });
});
