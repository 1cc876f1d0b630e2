import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchChromium } from '../__tests__/browser';
import { eventually, linkOf, mailText, otpOf, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';

/** A page of the tenant's own application: it frames `src` and keeps every message it receives, with its origin. */
const HOST_PAGE = (src: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body>
<iframe id="firma" title="Firma" src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" width="900" height="1400"></iframe>
<script>
window.received = []; window.frameLoaded = false;
window.addEventListener('message', function (e) { window.received.push({ origin: e.origin, data: e.data }); });
document.getElementById('firma').addEventListener('load', function () { window.frameLoaded = true; });
</script></body></html>`;

/** A tiny HTTP server on its own loopback port, standing for the tenant's application. */
async function startHost(hostname: '127.0.0.1' | 'localhost'): Promise<{ origin: string; serve(src: string): string; close(): Promise<void> }> {
  let page = '';
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://${hostname}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    serve(src: string) {
      page = HOST_PAGE(src);
      return `${origin}/`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Received = { origin: string; data: { type: string; request_id?: string; status?: string; signature?: { status: string } | null } };

describe('embedded signing: a tenant frames its signing pages from its own application', () => {
  let env: TestEsign;
  let browser: Browser;
  let key: string;
  let otherKey: string;
  let allowed: Awaited<ReturnType<typeof startHost>>;
  let stranger: Awaited<ReturnType<typeof startHost>>;
  const api = () => request(env.rt.server!);

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_embedding' });
    key = await env.keyFor('acme');
    otherKey = await env.keyFor('other');
    // The host the tenant lists, and one it does not: another loopback origin (another port).
    allowed = await startHost('127.0.0.1');
    stranger = await startHost('127.0.0.1');
    // acme lists the first host (and its production origin); other lists none unless a test says so.
    await api().put('/firma/ajustes').set('authorization', key).send({ embed_origins: [allowed.origin, 'https://app.acme.example'] }).expect(200);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await allowed?.close();
    await stranger?.close();
    await env?.close();
  });

  async function emailedLink(apiKey: string, email: string, extra: Record<string, unknown> = {}) {
    const up = await api().post('/firma/documentos').set('authorization', apiKey).field('title', 'Contrato enmarcado').attach('file', await samplePdf(), { filename: 'contrato.pdf', contentType: 'application/pdf' });
    const created = await api().post('/firma/solicitudes').set('authorization', apiKey).send({ document_id: up.body.document_id, signee_email: email, signee_name: 'Elena Embebida', ...extra });
    expect(created.status).toBe(200);
    const { token } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    return { token, path: `/firma/firmar/${token}`, requestId: created.body.request_id as string };
  }

  describe('the embed_origins setting', () => {
    it('is stored normalised, answered by GET, and replaced by a PUT without it (none)', async () => {
      const put = await api().put('/firma/ajustes').set('authorization', otherKey).send({ embed_origins: ['HTTPS://App.Example.com:443/', 'http://localhost:5173'] });
      expect(put.status).toBe(200);
      expect(put.body.embed_origins).toEqual(['https://app.example.com', 'http://localhost:5173']);
      expect((await api().get('/firma/ajustes').set('authorization', otherKey)).body.embed_origins).toEqual(['https://app.example.com', 'http://localhost:5173']);
      const cleared = await api().put('/firma/ajustes').set('authorization', otherKey).send({ notify_email: 'x@example.test' });
      expect(cleared.body.embed_origins).toEqual([]);
    });

    it('refuses an origin that is not one (422 at its index) and more than five, storing nothing', async () => {
      const bad = await api().put('/firma/ajustes').set('authorization', otherKey).send({ embed_origins: ['https://ok.example', 'http://app.example.com'] });
      expect(bad.status).toBe(422);
      expect(bad.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'embed_origins', 1] })]);
      const many = await api().put('/firma/ajustes').set('authorization', otherKey).send({ embed_origins: [1, 2, 3, 4, 5, 6].map((n) => `https://a${n}.example`) });
      expect(many.status).toBe(422);
      expect(many.body.detail[0].loc).toEqual(['body', 'embed_origins']);
      expect((await api().get('/firma/ajustes').set('authorization', otherKey)).body.embed_origins).toEqual([]);
    });
  });

  describe('headers', () => {
    it("a tenant without origins keeps its signing page unframeable: frame-ancestors 'none' and X-Frame-Options DENY", async () => {
      await api().put('/firma/ajustes').set('authorization', otherKey).send({}).expect(200);
      const { path } = await emailedLink(otherKey, 'nadie@example.test');
      const page = await api().get(path);
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'$/);
      expect(page.headers['x-frame-options']).toBe('DENY');
    });

    it('a tenant with origins: its signing pages list exactly them, without X-Frame-Options, in every state of the flow; the rest of the service stays unframeable', async () => {
      const { path, token } = await emailedLink(key, 'cabecera@example.test');
      const framed = (res: request.Response) => {
        expect(res.headers['content-security-policy']).toMatch(new RegExp(`frame-ancestors ${allowed.origin} https://app\\.acme\\.example$`));
        expect(res.headers['x-frame-options']).toBeUndefined();
      };
      framed(await api().get(path));
      framed(await api().get(`${path}?error=INVALID_OTP`));
      await api().post(`${path}/rechazar`).type('form').set('accept', 'text/html').send({ motivo: 'No estoy de acuerdo' }).expect(303);
      const declined = await api().get(path);
      expect(declined.text).toContain('Firma rechazada');
      framed(declined);

      // an unknown link has no tenant, the tenant's other resources are not signing pages
      const unknown = await api().get(`/firma/firmar/${'x'.repeat(43)}`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers['content-security-policy']).toMatch(/frame-ancestors 'none'$/);
      expect(unknown.headers['x-frame-options']).toBe('DENY');
      for (const other of [await api().get('/docs'), await api().get('/firma/ajustes').set('authorization', key), await api().get(`/firma/firmar/${token}/documento`)]) {
        expect(other.headers['x-frame-options']).toMatch(/^(DENY|SAMEORIGIN)$/);
        expect(other.headers['content-security-policy']).toMatch(/frame-ancestors '(none|self)'/);
      }
    });

    it('posts events only for a listed ?origen=, escaped, and keeps it through the no-JavaScript form posts', async () => {
      const { path } = await emailedLink(key, 'origen@example.test');
      const listed = await api().get(`${path}?origen=${encodeURIComponent(allowed.origin + '/')}`);
      expect(listed.text).toContain(`data-origin="${allowed.origin}"`);
      expect(listed.text).toContain(`action="${path}/confirmar?origen=${encodeURIComponent(allowed.origin)}"`);
      for (const foreign of [stranger.origin, '"><script>alert(1)</script>', 'https://app.acme.example.evil.test']) {
        const page = await api().get(`${path}?origen=${encodeURIComponent(foreign)}`);
        expect(page.status).toBe(200);
        expect(page.text).not.toContain('firma-embed');
        expect(page.text).not.toContain('origen=');
        expect(page.text).not.toContain('<script>alert');
      }
      // the code step without JavaScript: back to the page, origen kept beside the notice
      await api().get(`${path}/documento`).expect(200);
      const sent = await api().post(`${path}/otp?origen=${encodeURIComponent(allowed.origin)}`).type('form').set('accept', 'text/html').send({ declaration_accepted: 'true' });
      expect(sent.status).toBe(303);
      expect(sent.headers.location).toBe(`${path}?aviso=codigo-enviado&origen=${encodeURIComponent(allowed.origin)}#code`);
      const wrong = await api().post(`${path}/confirmar?origen=${encodeURIComponent(allowed.origin)}`).type('form').set('accept', 'text/html').send({ declaration_accepted: 'true', otp_code: '12345x' });
      expect(wrong.status).toBe(303);
      expect(wrong.headers.location).toMatch(new RegExp(`^${path}\\?error=\\w+&origen=${encodeURIComponent(allowed.origin)}#error$`));
      // a carried origen that is not an origin is dropped, not echoed
      const junk = await api().post(`${path}/otp?origen=${encodeURIComponent('javascript:alert(1)')}`).type('form').set('accept', 'text/html').send({ declaration_accepted: 'true' });
      expect(junk.headers.location).toBe(`${path}?aviso=codigo-enviado#code`);
    });

    it('redirect_url keeps working for a full-page flow: the confirmation answers it and the success page links it', async () => {
      const email = 'redirect@example.test';
      const { path } = await emailedLink(key, email, { redirect_url: 'https://app.acme.example/gracias?x=1' });
      await api().get(`${path}/documento`).expect(200);
      const before = env.smtp.messages.length;
      await api().post(`${path}/otp`).send({ declaration_accepted: true }).expect(200);
      const code = otpOf(await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /digo para firmar/.test(mailText(m))));
      const confirmed = await api().post(`${path}/confirmar`).send({ declaration_accepted: true, otp_code: code });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.redirect_url).toBe('https://app.acme.example/gracias?x=1');
      const done = await api().get(path);
      expect(done.text).toContain('href="https://app.acme.example/gracias?x=1"');
    });
  });

  describe('in a real browser (Debian chromium)', () => {
    async function frameOf(page: Page): Promise<Frame> {
      await page.waitForFunction('window.frameLoaded === true');
      return page.frames().find((f) => f !== page.mainFrame())!;
    }
    const received = (page: Page) => page.evaluate<Received[]>('window.received');

    it('a listed host frames the page, the signee signs inside the frame, and the host hears firma:loaded, firma:viewed and firma:signed', async () => {
      const email = 'enmarcada@example.test';
      const { path, requestId } = await emailedLink(key, email);
      const context = await browser.newContext({ locale: 'es-ES' });
      const page = await context.newPage();
      try {
        await page.goto(allowed.serve(`${env.rt.url}${path}?origen=${encodeURIComponent(allowed.origin)}`));
        const frame = await frameOf(page);
        await frame.getByRole('heading', { name: 'Contrato enmarcado' }).waitFor();
        await page.waitForFunction("window.received.some(function (m) { return m.data.type === 'firma:viewed'; })");
        const first = await received(page);
        expect(first.map((m) => m.data.type)).toEqual(['firma:loaded', 'firma:viewed']);
        expect(first.every((m) => m.origin === env.rt.url)).toBe(true);
        expect(first[0]!.data).toEqual({ type: 'firma:loaded', request_id: requestId, status: 'pending' });

        await frame.check('#declaration_accepted');
        const before = env.smtp.messages.length;
        await frame.getByRole('button', { name: 'Enviar código' }).click();
        await frame.waitForURL(/aviso=codigo-enviado/);
        expect(frame.url()).toContain(`origen=${encodeURIComponent(allowed.origin)}`);
        const code = otpOf(await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /digo para firmar/.test(mailText(m))));
        await frame.check('#declaration_accepted');
        await frame.getByLabel('Código de 6 dígitos').fill(code);
        await frame.getByLabel('O escriba su nombre como firma').fill('Elena Embebida');
        await frame.getByRole('button', { name: 'Firmar el documento' }).click();
        await frame.getByRole('heading', { name: 'Documento firmado' }).waitFor();

        await page.waitForFunction("window.received.some(function (m) { return m.data.type === 'firma:signed'; })");
        const signed = (await received(page)).find((m) => m.data.type === 'firma:signed')!;
        expect(signed.origin).toBe(env.rt.url);
        expect(signed.data).toMatchObject({ type: 'firma:signed', request_id: requestId, status: 'signed', signature: { status: expect.stringMatching(/^(sealed|sealing)$/) } });
        const status = await api().get(`/firma/solicitudes/${requestId}/estado`).set('authorization', key);
        expect(status.body.status).toBe('signed');
      } finally {
        await context.close();
      }
    });

    it('a host on an origin the tenant does not list is refused by the browser: the frame never shows the page and no event reaches the host', async () => {
      const { path } = await emailedLink(key, 'rechazada@example.test');
      const context = await browser.newContext({ locale: 'es-ES' });
      const page = await context.newPage();
      try {
        // It even claims a listed origin: the browser still refuses the frame.
        await page.goto(stranger.serve(`${env.rt.url}${path}?origen=${encodeURIComponent(allowed.origin)}`));
        const frame = await frameOf(page);
        await eventually(async () => (frame.url().startsWith('chrome-error://') ? true : undefined));
        // Chrome's error page is shown instead of ours: none of the document, none of the form.
        expect(await frame.getByText('Contrato enmarcado').count()).toBe(0);
        expect(await frame.locator('#firmar').count()).toBe(0);
        expect(await received(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
