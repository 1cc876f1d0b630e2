import { PDFDocument, StandardFonts } from 'pdf-lib';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchChromium } from '../__tests__/browser';
import { eventually, linkOf, mailText, otpOf, signingTables, startTestEsign, type TestEsign } from '../__tests__/support';

/** A 3-page document with `{{dni}}` on page 1 and `{{acepto}}` on page 2. */
async function threePages(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const texts = ['Arrendatario con DNI {{dni}}.', '{{acepto}} Acepto las condiciones.', 'Firma del arrendatario:'];
  for (const text of texts) doc.addPage([595, 842]).drawText(text, { x: 60, y: 700, size: 12, font });
  return Buffer.from(await doc.save());
}

const FIELDS = [
  { type: 'signature', page: 'last', box: { x: 0.1, y: 0.2, w: 0.4, h: 0.1 } },
  { type: 'initials', page: 'all', box: { x: 0.85, y: 0.9, w: 0.1, h: 0.05 } },
  { type: 'checkbox', name: 'acepta', label: 'Acepto las condiciones', required: true, anchor: '{{acepto}}' },
  { type: 'text', name: 'dni', label: 'DNI', anchor: '{{dni}}', size: { w: 0.2, h: 0.025 }, pattern: '[0-9]{8}[A-Z]', max_length: 9 },
];

describe('fields on the signing page in a real browser (Debian chromium)', () => {
  let env: TestEsign;
  let browser: Browser;
  let key: string;
  let pdf: Buffer;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_fields_browser' });
    key = await env.keyFor('acme');
    browser = await launchChromium();
    pdf = await threePages();
  });

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  async function emailedLink(email: string) {
    const up = await request(env.rt.server!).post('/firma/documentos').set('authorization', key).field('title', 'Arrendamiento').attach('file', pdf, { filename: 'a.pdf', contentType: 'application/pdf' });
    const created = await request(env.rt.server!).post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email, signee_name: 'Nora Jiménez', fields: FIELDS });
    expect(created.status).toBe(200);
    const { url } = linkOf(await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/')));
    return { url: `${env.rt.url}${new URL(url).pathname}`, requestId: created.body.request_id as string, documentId: up.body.document_id as string };
  }

  const viewed = (documentId: string) => eventually(async () => ((await signingTables(env.rt).audit.listForDocument(documentId)).some((e) => e.kind === 'document_viewed') ? true : undefined));

  async function codeAfter(email: string, before: number): Promise<string> {
    return otpOf(await env.smtp.waitFor((m) => env.smtp.messages.indexOf(m) >= before && m.to.includes(email) && /digo para firmar/.test(mailText(m))));
  }

  /** axe-core on this URL at this width (axe needs scripts: a context of its own with them on). */
  async function axeAt(url: string, width: number): Promise<string[]> {
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(url);
      return await axeViolations(page);
    } finally {
      await context.close();
    }
  }

  /** Presses Tab until the focused element has this id (or, for a button, this text). */
  async function tabTo(page: Page, target: string): Promise<void> {
    let focused = '';
    for (let i = 0; i < 80 && focused !== target; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string>('document.activeElement ? (document.activeElement.id || document.activeElement.textContent.trim()) : ""');
    }
    expect(focused).toBe(target);
  }

  it('works with no JavaScript on a phone: outlines with their names, the inputs in page order, a refused value shown beside them, then signed; axe-clean at 390 px', async () => {
    const email = 'sinjs@example.test';
    const { url, requestId, documentId } = await emailedLink(email);
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(url);
      const outlines = page.locator('.field-outline');
      await expect(outlines.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).resolves.toEqual([
        'Iniciales, página 1 de 3',
        'DNI, página 1 de 3',
        'Iniciales, página 2 de 3',
        'Acepto las condiciones, página 2 de 3',
        'Firma aquí, página 3 de 3',
        'Iniciales, página 3 de 3',
      ]);
      // Each outline sits over its page image, where the field is.
      const frame = (await page.locator('.page-frame').nth(2).boundingBox())!;
      const signature = (await page.getByRole('img', { name: 'Firma aquí, página 3 de 3' }).boundingBox())!;
      expect(Math.abs(signature.x - (frame.x + 0.1 * frame.width))).toBeLessThan(3);
      expect(Math.abs(signature.y - (frame.y + 0.2 * frame.height))).toBeLessThan(3);
      // The inputs in page order, each with its page: DNI (page 1) before the checkbox (page 2).
      const labels = await page.locator('#campos-h ~ div label').allTextContents();
      expect(labels).toEqual(['DNI, página 1 de 3 (obligatorio)', 'Acepto las condiciones, página 2 de 3 (obligatorio)', 'Sus iniciales']);
      expect(await axeAt(page.url(), 390)).toEqual([]);

      // The page images load without any script: they record the view.
      await viewed(documentId);
      await page.check('#declaration_accepted');
      const before = env.smtp.messages.length;
      await page.getByRole('button', { name: 'Enviar código' }).click();
      await page.waitForURL(/aviso=codigo-enviado/);
      const code = await codeAfter(email, before);

      // A DNI that breaks the pattern: back to the page with the message by the inputs, axe-clean; the code still works.
      await page.check('#declaration_accepted');
      await page.getByLabel('Código de 6 dígitos').fill(code);
      await page.getByLabel('DNI, página 1 de 3 (obligatorio)').fill('1234');
      await page.getByLabel('Acepto las condiciones, página 2 de 3 (obligatorio)').check();
      await page.getByRole('button', { name: 'Firmar el documento' }).click();
      await page.waitForURL(/error=field_invalid/);
      await expect(page.locator('#campos-h-error').textContent()).resolves.toContain('no tiene la forma esperada');
      expect(await axeAt(page.url(), 390)).toEqual([]);

      await page.check('#declaration_accepted');
      await page.getByLabel('Código de 6 dígitos').fill(code);
      await page.getByLabel('O escriba su nombre como firma').fill('Nora Jiménez');
      await page.getByLabel('DNI, página 1 de 3 (obligatorio)').fill('12345678Z');
      await page.getByLabel('Acepto las condiciones, página 2 de 3 (obligatorio)').check();
      await page.getByLabel('Sus iniciales').fill('N.J.');
      await page.getByRole('button', { name: 'Firmar el documento' }).click();
      await page.getByRole('heading', { name: 'Documento firmado' }).waitFor();
      const status = await request(env.rt.server!).get(`/firma/solicitudes/${requestId}/estado`).set('authorization', key);
      expect(status.body.field_values).toMatchObject({ dni: '12345678Z', acepta: true, '@iniciales': 'N.J.' });
    } finally {
      await context.close();
    }
  });

  it('is operable by keyboard alone on a desktop, fields included, and axe-clean at 1280 px', async () => {
    const email = 'teclado@example.test';
    const { url, requestId, documentId } = await emailedLink(email);
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(url);
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate<number>('window.innerWidth')).toBe(1280);
      await viewed(documentId);
      await tabTo(page, 'declaration_accepted');
      await page.keyboard.press('Space');
      const before = env.smtp.messages.length;
      await tabTo(page, 'Enviar código');
      await page.keyboard.press('Enter');
      await page.waitForURL(/aviso=codigo-enviado/);
      const code = await codeAfter(email, before);

      await tabTo(page, 'declaration_accepted');
      await page.keyboard.press('Space');
      await tabTo(page, 'code');
      await page.keyboard.type(code);
      await tabTo(page, 'firma_nombre');
      await page.keyboard.type('Nora Jiménez');
      await tabTo(page, 'campo-dni');
      await page.keyboard.type('87654321X');
      await tabTo(page, 'campo-acepta');
      await page.keyboard.press('Space');
      expect(await page.isChecked('#campo-acepta')).toBe(true);
      await tabTo(page, 'Firmar el documento');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Documento firmado' }).waitFor();
      const status = await request(env.rt.server!).get(`/firma/solicitudes/${requestId}/estado`).set('authorization', key);
      expect(status.body.field_values).toEqual({ dni: '87654321X', acepta: true });
    } finally {
      await context.close();
    }
  });
});
