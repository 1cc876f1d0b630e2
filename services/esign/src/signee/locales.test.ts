import request from 'supertest';
import type { Browser } from 'playwright-core';
import { escapeHtml } from '../html/page-shell';
import { EMAIL_TEXT, SIGNEE_LOCALES } from '../signing-requests/email-strings';
import { axeViolations, launchChromium } from '../__tests__/browser';
import { linkOf, mailText, samplePdf, startTestEsign, type TestEsign } from '../__tests__/support';
import { SIGNEE_TEXT } from './page-strings';

/** The signee's languages: the request's `locale` chooses the link email, the signing page and the code email. */
describe('signee languages (es, en, ca, gl, eu)', () => {
  let env: TestEsign;
  let key: string;
  let browser: Browser;

  beforeAll(async () => {
    env = await startTestEsign({ name: 'esign_locales' });
    key = await env.keyFor('idiomes');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  const api = () => request(env.rt.server!);

  it('has every string of the page in every language, none left empty', () => {
    const keys = Object.keys(SIGNEE_TEXT.es).sort();
    for (const locale of SIGNEE_LOCALES) {
      expect(Object.keys(SIGNEE_TEXT[locale]).sort()).toEqual(keys);
      expect(Object.keys(SIGNEE_TEXT[locale].errors).sort()).toEqual(Object.keys(SIGNEE_TEXT.es.errors).sort());
      expect(Object.keys(SIGNEE_TEXT[locale].notices).sort()).toEqual(Object.keys(SIGNEE_TEXT.es.notices).sort());
      for (const value of Object.values(SIGNEE_TEXT[locale])) if (typeof value === 'string') expect(value.trim().length).toBeGreaterThan(0);
    }
  });

  it.each(['ca', 'gl', 'eu'] as const)('in %s: the link email, the page (lang, strings, axe on a phone) and the code email', async (locale) => {
    const email = `${locale}@example.test`;
    const title = `Contracte ${locale}`;
    const up = await api().post('/firma/documentos').set('authorization', key).field('title', title).attach('file', await samplePdf(), { filename: 'c.pdf', contentType: 'application/pdf' });
    await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email, locale }).expect(200);
    const mail = await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes('/firma/firmar/'));
    const text = mailText(mail);
    const t = EMAIL_TEXT[locale];
    expect(text).toContain(t.linkIntro('idiomes', title));
    expect(text).toContain(t.linkAction);
    expect(text).toContain(`<html lang="${locale}">`);

    const path = new URL(linkOf(mail).url).pathname;
    const page = await api().get(path).expect(200);
    const p = SIGNEE_TEXT[locale];
    expect(page.text).toContain(`<html lang="${locale}">`);
    for (const s of [p.step1, p.step2, p.step3, p.sendCode, p.sign, p.typedLabel, p.textTitle]) expect(page.text).toContain(escapeHtml(s));

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const tab = await context.newPage();
    try {
      await tab.goto(`${env.rt.url}${path}`);
      expect(await axeViolations(tab)).toEqual([]);
      const widths = await tab.evaluate<{ scroll: number; client: number }>('({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })');
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    } finally {
      await context.close();
    }

    await api().get(`${path}/documento`).expect(200);
    await api().post(`${path}/otp`).send({ declaration_accepted: true }).expect(200);
    const otp = await env.smtp.waitFor((m) => m.to.includes(email) && mailText(m).includes(t.otpValidity(10)));
    expect(mailText(otp)).toContain(t.otpIntro(title));
  });

  it('takes ?locale= over the request language, and refuses a language it does not speak with 422', async () => {
    const email = 'override@example.test';
    const up = await api().post('/firma/documentos').set('authorization', key).attach('file', await samplePdf(), { filename: 'c.pdf', contentType: 'application/pdf' });
    await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: email, locale: 'ca' }).expect(200);
    const path = new URL(linkOf(await env.smtp.waitFor((m) => m.to.includes(email))).url).pathname;
    expect((await api().get(`${path}?locale=gl`)).text).toContain('<html lang="gl">');
    expect((await api().get(`${path}?locale=fr`)).status).toBe(422);
    const refused = await api().post('/firma/solicitudes').set('authorization', key).send({ document_id: up.body.document_id, signee_email: 'x@example.test', locale: 'fr' });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(['body', 'locale']);
  });
});
