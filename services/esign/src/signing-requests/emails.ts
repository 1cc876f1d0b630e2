import { escapeHtml } from '@firma-riesgo/service-kit';

export type Locale = 'es' | 'en';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

function formatDate(date: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'es' ? 'es-ES' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date) + ' UTC';
}

/** The tenant's branding in an email: a logo above the text and an accent for the link. */
export interface EmailBrand {
  name: string;
  logoUrl: string | null;
  /** Already adjusted for WCAG AA contrast with white. */
  accentColor: string | null;
}

function layout(locale: Locale, body: string, brand?: EmailBrand): string {
  const logo = brand?.logoUrl ? `<p><img src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name)}" style="max-height:60px;max-width:240px"></p>` : '';
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"></head><body style="font-family:system-ui,sans-serif;color:#1a1a1a;line-height:1.5">${logo}${body}</body></html>`;
}

const HEX = /^#[0-9a-f]{6}$/;

/** The email with the signing link, in the request's locale. Every interpolated value is escaped in the HTML part. */
export function signingLinkEmail(input: {
  locale: Locale;
  signeeName: string | null;
  tenant: string;
  documentTitle: string;
  message: string | null;
  url: string;
  expiresAt: Date;
  brand?: EmailBrand;
}): RenderedEmail {
  const es = input.locale === 'es';
  const greeting = input.signeeName ? (es ? `Hola, ${input.signeeName}:` : `Hello ${input.signeeName},`) : es ? 'Hola:' : 'Hello,';
  const intro = es
    ? `${input.tenant} le pide que firme electrónicamente el documento «${input.documentTitle}».`
    : `${input.tenant} asks you to sign the document "${input.documentTitle}" electronically.`;
  const action = es ? 'Revise y firme el documento en este enlace:' : 'Review and sign the document at this link:';
  const expiry = es ? `El enlace caduca el ${formatDate(input.expiresAt, 'es')}.` : `The link expires on ${formatDate(input.expiresAt, 'en')}.`;
  const note = es
    ? 'Si no esperaba este mensaje, ignórelo. No comparta este enlace: es personal.'
    : 'If you did not expect this message, ignore it. Do not share this link: it is personal.';
  const messageLabel = es ? 'Mensaje del remitente:' : 'Message from the sender:';
  const text = [greeting, '', intro, ...(input.message ? ['', messageLabel, input.message] : []), '', action, input.url, '', expiry, '', note, ''].join('\n');
  const html = layout(
    input.locale,
    [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      input.message ? `<p><strong>${escapeHtml(messageLabel)}</strong><br>${escapeHtml(input.message)}</p>` : '',
      input.brand?.accentColor && HEX.test(input.brand.accentColor)
        ? `<p>${escapeHtml(action)}</p><p><a href="${escapeHtml(input.url)}" style="display:inline-block;padding:.6em 1.2em;background:${input.brand.accentColor};color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(input.url)}</a></p>`
        : `<p>${escapeHtml(action)}<br><a href="${escapeHtml(input.url)}">${escapeHtml(input.url)}</a></p>`,
      `<p>${escapeHtml(expiry)}</p>`,
      `<p style="color:#555">${escapeHtml(note)}</p>`,
    ].join(''),
    input.brand,
  );
  return { subject: es ? `Documento para firmar: ${input.documentTitle}` : `Document to sign: ${input.documentTitle}`, text, html };
}

/** The one-time code email. The code sits on a line of its own, easy to read and to copy. */
export function otpEmail(input: { locale: Locale; code: string; documentTitle: string; minutes: number; brand?: EmailBrand }): RenderedEmail {
  const es = input.locale === 'es';
  const intro = es
    ? `Su código para firmar «${input.documentTitle}» es:`
    : `Your code to sign "${input.documentTitle}" is:`;
  const validity = es ? `Caduca en ${input.minutes} minutos y solo sirve una vez.` : `It expires in ${input.minutes} minutes and works once.`;
  const note = es ? 'Si no ha pedido este código, ignore este mensaje.' : 'If you did not ask for this code, ignore this message.';
  const text = [intro, '', input.code, '', validity, note, ''].join('\n');
  const html = layout(
    input.locale,
    `<p>${escapeHtml(intro)}</p><p style="font-size:1.6em;letter-spacing:.2em"><strong>${escapeHtml(input.code)}</strong></p><p>${escapeHtml(validity)}</p><p style="color:#555">${escapeHtml(note)}</p>`,
    input.brand,
  );
  return { subject: es ? 'Su código de firma' : 'Your signing code', text, html };
}
