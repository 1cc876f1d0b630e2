import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchChromium } from '../__tests__/browser';
import { eventually, linkOf, mailText, otpOf, samplePdf, signingTables, startTestEsign, type TestEsign } from '../__tests__/support';

describe('the signing page in a real browser (Debian chromium)', () => {
  let env: TestEsign;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_browser' });
    key = await env.keyFor('acme');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  async function emailedLink(email: string, name: string) {
    const up = await request(env.rt.server!).post('/firma/documentos').set('authorization', key).field('title', 'Contrato de prueba').attach('file', await samplePdf(), { filename: 'contrato.pdf', contentType: 'application/pdf' });
    const created = await request(env.rt.server!).post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email, signee_name: name });
    const { url } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    // The email carries ESIGN_PUBLIC_URL; the browser reaches the same path on the test server.
    return { url: `${env.rt.url}${new URL(url).pathname}`, requestId: created.body.request_id as string, documentId: up.body.document_id as string };
  }

  /** On a touch screen: tick the declaration, tap "Enviar código", and read the code from the email. */
  async function codeByTapping(page: Page, email: string): Promise<string> {
    await page.tap('label[for="declaration_accepted"]');
    const before = env.smtp.messages.length;
    await page.getByRole('button', { name: 'Enviar código' }).tap();
    await page.waitForURL(/aviso=codigo-enviado/);
    return otpOf(await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /digo para firmar/.test(mailText(m))));
  }

  it('lets a signee view, get the code by email, draw a signature, confirm and see the success page', async () => {
    const email = 'navegador@example.test';
    const { url, requestId, documentId } = await emailedLink(email, 'Nora Navegador');
    const context = await browser.newContext({ locale: 'es-ES' });
    const page = await context.newPage();
    try {
      await page.goto(url);
      expect(await page.title()).toBe('Contrato de prueba');
      // The embedded viewer loads the document, which records the view the code step needs.
      await eventually(async () => ((await signingTables(env.rt).audit.listForDocument(documentId)).some((e) => e.kind === 'document_viewed') ? true : undefined));

      // Keyboard only, up to the declaration: it is reachable and operable without a mouse.
      let focused = '';
      for (let i = 0; i < 20 && focused !== 'declaration_accepted'; i++) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate<string>('document.activeElement ? document.activeElement.id : ""');
      }
      expect(focused).toBe('declaration_accepted');
      await page.keyboard.press('Space');
      expect(await page.isChecked('#declaration_accepted')).toBe(true);

      const before = env.smtp.messages.length;
      await page.getByRole('button', { name: 'Enviar código' }).click();
      await page.waitForURL(/aviso=codigo-enviado/);
      await expect(page.getByRole('status').first().textContent()).resolves.toContain('Le hemos enviado el código');
      const code = otpOf(await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /digo para firmar/.test(mailText(m))));

      // a wrong code first: the page with its error (beside the code field) passes axe too
      await page.check('#declaration_accepted');
      await page.getByLabel('Código de 6 dígitos').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Firmar el documento' }).click();
      await page.waitForURL(/error=INVALID_OTP/);
      await expect(page.locator('#code-error').isVisible()).resolves.toBe(true);
      expect(await axeViolations(page)).toEqual([]);

      await page.check('#declaration_accepted');
      await page.getByLabel('Código de 6 dígitos').fill(code);
      // The pad in view first: the mouse draws where the screen shows it.
      await page.locator('#pad').scrollIntoViewIfNeeded();
      const pad = (await page.locator('#pad').boundingBox())!;
      await page.mouse.move(pad.x + 20, pad.y + pad.height * 0.7);
      await page.mouse.down();
      for (let i = 1; i <= 12; i++) await page.mouse.move(pad.x + 20 + i * 25, pad.y + pad.height * (i % 2 ? 0.3 : 0.7));
      await page.mouse.up();

      await page.getByRole('button', { name: 'Firmar el documento' }).click();
      await page.getByRole('heading', { name: 'Documento firmado' }).waitFor();
      await expect(page.getByRole('link', { name: 'Descargar su copia firmada (PDF)' }).count()).resolves.toBe(1);

      const status = await request(env.rt.server!).get(`/firma/solicitudes/${requestId}/estado`).set('authorization', key);
      expect(status.body).toMatchObject({ status: 'signed', signature: { status: 'sealed', level: 'B-B' } });
      const row = await signingTables(env.rt).requests.find(requestId);
      expect(row?.hasSignatureImage).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('passes an axe-core check of the signing page: labels, names, contrast, language', async () => {
    const { url } = await emailedLink('axe@example.test', 'Axel');
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(url);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows every page as an image on a phone (390×844, touch), with no horizontal scroll, and records the view as pages', async () => {
    const { url, documentId } = await emailedLink('movil@example.test', 'Mara Móvil');
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    try {
      await page.goto(url);
      const images = page.locator('ol.pages img');
      await expect(images.count()).resolves.toBe(2); // samplePdf has two pages
      await page.waitForFunction("(() => { const first = document.querySelector('ol.pages img'); return Boolean(first && first.complete && first.naturalWidth > 0); })()");
      expect(await images.first().getAttribute('alt')).toBe('Página 1 de 2');
      const widths = await page.evaluate<{ scroll: number; client: number }>('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })');
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      // only the images were fetched, not the PDF: the view is recorded all the same
      const viewed = await eventually(async () => (await signingTables(env.rt).audit.listForDocument(documentId)).find((e) => e.kind === 'document_viewed'));
      expect(viewed.details).toMatchObject({ via: 'pages' });
      expect(await axeViolations(page)).toEqual([]);
      // the text of the pages opens with a tap, stays inside the screen, and passes axe open too
      await page.tap('details.doc-text summary');
      await expect(page.locator('details.doc-text h3').allTextContents()).resolves.toEqual(['Página 1 de 2', 'Página 2 de 2']);
      const open = await page.evaluate<{ scroll: number; client: number }>('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })');
      expect(open.scroll).toBeLessThanOrEqual(open.client);
      expect(await axeViolations(page)).toEqual([]);
      // the narrowest phones: 320 px wide, still no horizontal scroll
      await page.setViewportSize({ width: 320, height: 640 });
      const narrow = await page.evaluate<{ scroll: number; client: number }>('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })');
      expect(narrow.scroll).toBeLessThanOrEqual(narrow.client);
    } finally {
      await context.close();
    }
  });

  it('completes the whole flow on a phone with JavaScript disabled: page images, forms, and a typed name as the signature', async () => {
    const email = 'sinjs@example.test';
    const { url, requestId, documentId } = await emailedLink(email, 'Sergio Sin Script');
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(url);
      // the page images load without any script: the view is recorded via pages
      const viewed = await eventually(async () => (await signingTables(env.rt).audit.listForDocument(documentId)).find((e) => e.kind === 'document_viewed'));
      expect(viewed.details).toMatchObject({ via: 'pages' });

      const code = await codeByTapping(page, email);

      // a wrong code first: the message sits next to the code field, tied to it, and the summary links there
      await page.tap('label[for="declaration_accepted"]');
      await page.getByLabel('Código de 6 dígitos').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Firmar el documento' }).tap();
      await page.waitForURL(/error=INVALID_OTP/);
      const codeField = page.locator('#code');
      await expect(codeField.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(codeField.getAttribute('aria-describedby')).resolves.toBe('code-error otp-help');
      await expect(page.locator('#code-error').textContent()).resolves.toBe('El código no es correcto. Le quedan 4 intentos.');
      await expect(page.locator('#error a').getAttribute('href')).resolves.toBe('#code');
      const sameRow = await page.evaluate<boolean>("document.getElementById('code-error').parentElement === document.getElementById('code').parentElement");
      expect(sameRow).toBe(true);

      await page.tap('label[for="declaration_accepted"]');
      await page.getByLabel('Código de 6 dígitos').fill(code);
      await page.getByLabel('O escriba su nombre como firma').fill('Sergio Sin Script');
      await page.getByRole('button', { name: 'Firmar el documento' }).tap();
      await page.getByRole('heading', { name: 'Documento firmado' }).waitFor();

      const row = await signingTables(env.rt).requests.find(requestId);
      expect(row).toMatchObject({ status: 'signed', hasSignatureImage: true });
      const signedEvent = (await signingTables(env.rt).audit.listForDocument(documentId)).find((e) => e.kind === 'signed');
      expect(signedEvent?.details).toMatchObject({ signature_image: 'typed' });
    } finally {
      await context.close();
    }
  });

  it('draws the signature with a finger on a phone: the touch strokes become the PNG stamped in the signed copy', async () => {
    const email = 'dedo@example.test';
    const { url, requestId, documentId } = await emailedLink(email, 'Dora Dedo');
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    try {
      await page.goto(url);
      await eventually(async () => ((await signingTables(env.rt).audit.listForDocument(documentId)).some((e) => e.kind === 'document_viewed') ? true : undefined));
      const code = await codeByTapping(page, email);
      await page.tap('label[for="declaration_accepted"]');
      await page.getByLabel('Código de 6 dígitos').fill(code);

      // Real touch input (CDP touch events): Chromium turns it into pointer events of type touch.
      await page.locator('#pad').scrollIntoViewIfNeeded();
      const pad = (await page.locator('#pad').boundingBox())!;
      const cdp = await context.newCDPSession(page);
      const at = (i: number) => ({ x: pad.x + 15 + i * 20, y: pad.y + pad.height * (i % 2 ? 0.3 : 0.7) });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(0)] });
      for (let i = 1; i <= 14; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at(i)] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      // (a click: Playwright's tap after raw CDP touches is not delivered)
      await page.getByRole('button', { name: 'Firmar el documento' }).click();
      await page.getByRole('heading', { name: 'Documento firmado' }).waitFor();
      const row = await signingTables(env.rt).requests.find(requestId);
      expect(row?.hasSignatureImage).toBe(true);
      const signedEvent = (await signingTables(env.rt).audit.listForDocument(documentId)).find((e) => e.kind === 'signed');
      expect(signedEvent?.details).toMatchObject({ signature_image: 'drawn' });
      // the pad sends an image only once a stroke has moved: 'drawn' above means the touch strokes drew
      const png = (await env.rt.signing.files.read(row!.signatureImageKey!))!;
      expect(png.readUInt32BE(16)).toBe(500);
    } finally {
      await context.close();
    }
  });
});
