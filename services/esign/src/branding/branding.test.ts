import request from 'supertest';
import type { Browser } from 'playwright-core';
import { bombPng, makePng } from '../../../../packages/pdf-core/src/images/__tests__/png-fixtures';
import { axeViolations, launchChromium } from '../__tests__/browser';
import { linkOf, mailText, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';
import { contrastRatio } from './contrast';

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><script>alert(1)</script><rect width="120" height="40" fill="#c00"/><text x="10" y="28">ACME</text></svg>`;

describe('tenant branding (PUT/GET /firma/marca)', () => {
  let env: TestEsign;
  let browser: Browser;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_branding' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  const api = () => request(env.rt.server!);
  const png = (r: request.Test) =>
    r.buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });

  async function signingLink(key: string, email: string) {
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'c.pdf', contentType: 'application/pdf' });
    await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email }).expect(200);
    const mail = await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/'));
    return { mail, path: new URL(linkOf(mail).url).pathname };
  }

  it('starts neutral, and needs a key: none is 422, an unknown one 401', async () => {
    const key = await env.keyFor('neutral-sa');
    expect((await api().get('/firma/marca').set('authorization', key)).body).toEqual({
      tenant: 'neutral-sa',
      display_name: null,
      accent_color: null,
      accent_color_used: null,
      logo_url: null,
      updated_at: null,
    });
    expect((await api().get('/firma/marca')).status).toBe(422);
    expect((await api().put('/firma/marca').set('authorization', 'esk_unknown').field('display_name', 'x')).status).toBe(401);
  });

  it('stores the name, a contrast-corrected accent and the logo drawn again, and shows them on the signing page and in both emails', async () => {
    const key = await env.keyFor('acme-brand');
    const put = await api()
      .put('/firma/marca')
      .set('authorization', key)
      .field('display_name', 'Acme <Seguros>')
      .field('accent_color', '#FFFF00')
      .attach('logo', makePng(900, 300), { filename: 'logo.png', contentType: 'image/png' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ tenant: 'acme-brand', display_name: 'Acme <Seguros>', accent_color: '#ffff00' });
    const used = put.body.accent_color_used as string;
    expect(used).not.toBe('#ffff00');
    expect(contrastRatio(used, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(put.body.logo_url).toMatch(/^https:\/\/firma\.example\.test\/firma\/marca\/logos\/[A-Za-z0-9_-]+\.png$/);

    const logoPath = new URL(put.body.logo_url).pathname;
    const logo = await png(api().get(logoPath));
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['cache-control']).toContain('immutable');
    // 900×300 fitted inside 600×200
    expect([(logo.body as Buffer).readUInt32BE(16), (logo.body as Buffer).readUInt32BE(20)]).toEqual([600, 200]);

    const { mail, path } = await signingLink(key, 'brand@example.test');
    expect(mailText(mail)).toContain('Acme <Seguros> le pide que firme');
    expect(mailText(mail)).toContain(`<img src="${put.body.logo_url}" alt="Acme &lt;Seguros&gt;"`);
    expect(mailText(mail)).toContain(`background:${used}`);

    const page = await api().get(path).expect(200);
    expect(page.text).toContain(`<img class="brand-logo" src="${logoPath}" alt="Acme &lt;Seguros&gt;">`);
    expect(page.text).toContain(`:root{--accent:${used}}`);
    expect(page.text).not.toContain('<Seguros>');

    // the code email carries the logo too
    await api().get(`${path}/documento`).expect(200);
    await api().post(`${path}/otp`).send({ declaration_accepted: true }).expect(200);
    const otpMail = await env.smtp.waitFor((m) => m.to.includes('brand@example.test') && /digo para firmar/.test(mailText(m)));
    expect(mailText(otpMail)).toContain(`<img src="${put.body.logo_url}"`);

    // in Chromium: the logo is drawn, the buttons wear the corrected accent, and axe finds nothing
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const tab = await context.newPage();
    try {
      await tab.goto(`${env.rt.url}${path}`);
      await tab.waitForFunction("(() => { const i = document.querySelector('img.brand-logo'); return Boolean(i && i.complete && i.naturalWidth === 600); })()");
      const background = await tab.evaluate<string>("getComputedStyle(document.querySelector('form button[type=submit]:not(.secondary)')).backgroundColor");
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(used.slice(i, i + 2), 16));
      expect(background).toBe(`rgb(${r}, ${g}, ${b})`);
      expect(await axeViolations(tab)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('rasterises an SVG logo (its script gone), refuses what is not a PNG or SVG, a logo over 256 KiB and a colour not written #rrggbb', async () => {
    const key = await env.keyFor('svg-brand');
    const put = await api().put('/firma/marca').set('authorization', key).attach('logo', Buffer.from(LOGO_SVG), { filename: 'logo.svg', contentType: 'image/svg+xml' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ display_name: null, accent_color: null });
    const logo = (await png(api().get(new URL(put.body.logo_url).pathname))).body as Buffer;
    expect(logo.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(logo.includes(Buffer.from('alert'))).toBe(false);

    const notImage = await api().put('/firma/marca').set('authorization', key).attach('logo', Buffer.from('GIF89a....'), { filename: 'x.gif', contentType: 'image/gif' });
    expect(notImage.status).toBe(422);
    expect(notImage.body.detail[0]).toMatchObject({ loc: ['form', 'logo'], type: 'logo_type' });
    const brokenSvg = await api().put('/firma/marca').set('authorization', key).attach('logo', Buffer.from('<svg'), { filename: 'x.svg', contentType: 'image/svg+xml' });
    expect(brokenSvg.status).toBe(422);
    expect((await api().put('/firma/marca').set('authorization', key).attach('logo', Buffer.alloc(300 * 1024), { filename: 'big.png', contentType: 'image/png' })).status).toBe(413);
    const colour = await api().put('/firma/marca').set('authorization', key).field('accent_color', 'red');
    expect(colour.status).toBe(422);
    expect(colour.body.detail[0].loc).toEqual(['form', 'accent_color']);
    // the failed calls changed nothing
    expect((await api().get('/firma/marca').set('authorization', key)).body.logo_url).toBe(put.body.logo_url);
  });

  it('goes back to the neutral look on DELETE, and the old logo URL stops answering', async () => {
    const key = await env.keyFor('gone-brand');
    const put = await api().put('/firma/marca').set('authorization', key).field('display_name', 'Marca Efímera').attach('logo', makePng(40, 40), { filename: 'l.png', contentType: 'image/png' });
    await api().delete('/firma/marca').set('authorization', key).expect(204);
    expect((await api().get('/firma/marca').set('authorization', key)).body.display_name).toBeNull();
    expect((await api().get(new URL(put.body.logo_url).pathname)).status).toBe(404);
    const { mail, path } = await signingLink(key, 'neutral@example.test');
    expect(mailText(mail)).toContain('gone-brand le pide que firme');
    expect((await api().get(path)).text).not.toContain('class="brand-logo"');
  });

  it('refuses a decompression-bomb PNG logo (20000×20000 declared, 48 KB) from its header with 422, before any decoder runs', async () => {
    const key = await env.keyFor('bomb-brand');
    const bomb = bombPng(20_000);
    expect(bomb.length).toBeLessThan(256 * 1024);
    const res = await api().put('/firma/marca').set('authorization', key).attach('logo', bomb, { filename: 'bomb.png', contentType: 'image/png' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'logo'], type: 'image_too_large' });
    expect(res.body.detail[0].msg).toContain('20000×20000');
    expect((await api().get('/firma/marca').set('authorization', key)).body.logo_url).toBeNull();
  });
});
