import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

const run = promisify(execFile);

/** The page rendered grey at 144 dpi: width, height and one byte a pixel; and the words pdftotext finds on it. */
async function pageOf(pdf: Buffer, page: number): Promise<{ width: number; height: number; pixels: Buffer; words: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'fields-browser-'));
  try {
    writeFileSync(join(dir, 'in.pdf'), pdf);
    const range = ['-f', String(page), '-l', String(page)];
    await run('pdftoppm', ['-gray', '-r', '144', ...range, '-singlefile', join(dir, 'in.pdf'), join(dir, 'out')], { timeout: 30_000 });
    const pgm = readFileSync(join(dir, 'out.pgm'));
    const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
    const { stdout } = await run('pdftotext', [...range, join(dir, 'in.pdf'), '-'], { timeout: 30_000 });
    return { width: Number(header[1]), height: Number(header[2]), pixels: pgm.subarray(header[0].length), words: stdout.split(/\s+/).filter(Boolean) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Drags the mouse across a canvas in a zigzag, as a hand would draw. */
async function drawOn(page: Page, selector: string): Promise<void> {
  await page.locator(selector).scrollIntoViewIfNeeded();
  const box = (await page.locator(selector).boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.3);
  await page.mouse.down();
  for (const [fx, fy] of [[0.3, 0.8], [0.5, 0.2], [0.7, 0.8], [0.9, 0.3]] as const) await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy, { steps: 8 });
  await page.mouse.up();
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

  it('takes initials drawn once with the mouse and sets that drawing in every initials box of the sealed copy; axe-clean with both pads', async () => {
    const email = 'dibujo@example.test';
    const { url, requestId, documentId } = await emailedLink(email);
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await page.goto(url);
      await expect(page.getByRole('img', { name: 'Área para dibujar las iniciales' }).isVisible()).resolves.toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await viewed(documentId);
      await page.check('#declaration_accepted');
      const before = env.smtp.messages.length;
      await page.getByRole('button', { name: 'Enviar código' }).click();
      await page.waitForURL(/aviso=codigo-enviado/);
      const code = await codeAfter(email, before);

      await page.check('#declaration_accepted');
      await page.getByLabel('Código de 6 dígitos').fill(code);
      await drawOn(page, '#pad');
      await drawOn(page, '#pad-iniciales');
      await page.getByLabel('DNI, página 1 de 3 (obligatorio)').fill('12345678Z');
      await page.getByLabel('Acepto las condiciones, página 2 de 3 (obligatorio)').check();
      await page.getByRole('button', { name: 'Firmar el documento' }).click();
      await page.getByRole('heading', { name: 'Documento firmado' }).waitFor();
    } finally {
      await context.close();
    }
    const status = await request(env.rt.server!).get(`/firma/solicitudes/${requestId}/estado`).set('authorization', key);
    // Drawn, not typed: no typed initials kept.
    expect(status.body.field_values).toEqual({ dni: '12345678Z', acepta: true });
    const copy = await request(env.rt.server!).get(`/firma/documentos/${documentId}/signed-pdf`).set('authorization', key).buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(copy.status).toBe(200);
    const box = FIELDS[1]!.box!;
    for (const n of [1, 2, 3]) {
      const { width, height, pixels, words } = await pageOf(copy.body as Buffer, n);
      // No typed initials ("NJ", from the name) anywhere: the box holds the drawing.
      expect(words).not.toContain('NJ');
      let ink = 0;
      let inkOutside = 0;
      for (let y = Math.floor((box.y - 0.02) * height); y < Math.ceil((box.y + box.h + 0.02) * height); y++) {
        for (let x = Math.floor((box.x - 0.02) * width); x < Math.min(width, Math.ceil((box.x + box.w + 0.02) * width)); x++) {
          if (pixels[y * width + x]! >= 160) continue;
          const inside = x >= box.x * width - 1 && x <= (box.x + box.w) * width + 1 && y >= box.y * height - 1 && y <= (box.y + box.h) * height + 1;
          if (inside) ink++;
          else inkOutside++;
        }
      }
      expect({ page: n, inked: ink > 30, inkOutside }).toEqual({ page: n, inked: true, inkOutside: 0 });
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
