import { escapeHtml } from '@firma-riesgo/service-kit';
import { formatDate } from '../html/page-shell';
import { EMAIL_TEXT, type SigneeLocale } from './email-strings';

export type Locale = SigneeLocale;

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
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
  const t = EMAIL_TEXT[input.locale];
  const greeting = t.greeting(input.signeeName);
  const intro = t.linkIntro(input.tenant, input.documentTitle);
  const expiry = t.linkExpiry(formatDate(input.expiresAt, input.locale));
  const text = [greeting, '', intro, ...(input.message ? ['', t.messageLabel, input.message] : []), '', t.linkAction, input.url, '', expiry, '', t.linkNote, ''].join('\n');
  const html = layout(
    input.locale,
    [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      input.message ? `<p><strong>${escapeHtml(t.messageLabel)}</strong><br>${escapeHtml(input.message)}</p>` : '',
      input.brand?.accentColor && HEX.test(input.brand.accentColor)
        ? `<p>${escapeHtml(t.linkAction)}</p><p><a href="${escapeHtml(input.url)}" style="display:inline-block;padding:.6em 1.2em;background:${input.brand.accentColor};color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(input.url)}</a></p>`
        : `<p>${escapeHtml(t.linkAction)}<br><a href="${escapeHtml(input.url)}">${escapeHtml(input.url)}</a></p>`,
      `<p>${escapeHtml(expiry)}</p>`,
      `<p style="color:#555">${escapeHtml(t.linkNote)}</p>`,
    ].join(''),
    input.brand,
  );
  return { subject: t.linkSubject(input.documentTitle), text, html };
}

/** The one-time code email. The code sits on a line of its own, easy to read and to copy. */
export function otpEmail(input: { locale: Locale; code: string; documentTitle: string; minutes: number; brand?: EmailBrand }): RenderedEmail {
  const t = EMAIL_TEXT[input.locale];
  const intro = t.otpIntro(input.documentTitle);
  const validity = t.otpValidity(input.minutes);
  const text = [intro, '', input.code, '', validity, t.otpNote, ''].join('\n');
  const html = layout(
    input.locale,
    `<p>${escapeHtml(intro)}</p><p style="font-size:1.6em;letter-spacing:.2em"><strong>${escapeHtml(input.code)}</strong></p><p>${escapeHtml(validity)}</p><p style="color:#555">${escapeHtml(t.otpNote)}</p>`,
    input.brand,
  );
  return { subject: t.otpSubject, text, html };
}

/** The completion copy: the final PDF attached (`url` null), or a link to it valid until `linkExpiresAt`. */
export function completionEmail(input: { locale: Locale; signeeName: string | null; documentTitle: string; url: string | null; linkExpiresAt: Date; brand?: EmailBrand }): RenderedEmail {
  const t = EMAIL_TEXT[input.locale];
  const greeting = t.greeting(input.signeeName);
  const intro = t.completionIntro(input.documentTitle);
  const how = input.url ? t.completionLink(formatDate(input.linkExpiresAt, input.locale)) : t.completionAttached;
  const text = [greeting, '', intro, '', how, ...(input.url ? [input.url] : []), ''].join('\n');
  const html = layout(
    input.locale,
    [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      input.url ? `<p>${escapeHtml(how)}<br><a href="${escapeHtml(input.url)}">${escapeHtml(input.url)}</a></p>` : `<p>${escapeHtml(how)}</p>`,
    ].join(''),
    input.brand,
  );
  return { subject: t.completionSubject(input.documentTitle), text, html };
}

/** The signee's request was cancelled: another signee declined, or the sender voided it (with the sender's reason). */
export function cancelledEmail(input: { locale: Locale; signeeName: string | null; tenant: string; documentTitle: string; cause: 'declined' | 'voided' | 'expired'; reason?: string; brand?: EmailBrand }): RenderedEmail {
  const t = EMAIL_TEXT[input.locale];
  const greeting = t.greeting(input.signeeName);
  const intro =
    input.cause === 'declined' ? t.cancelByDecline(input.documentTitle) : input.cause === 'expired' ? t.cancelByExpiry(input.documentTitle) : t.cancelByVoid(input.tenant, input.documentTitle);
  const text = [greeting, '', intro, ...(input.reason ? ['', t.messageLabel, input.reason] : []), ''].join('\n');
  const html = layout(
    input.locale,
    [`<p>${escapeHtml(greeting)}</p>`, `<p>${escapeHtml(intro)}</p>`, input.reason ? `<p><strong>${escapeHtml(t.messageLabel)}</strong><br>${escapeHtml(input.reason)}</p>` : ''].join(''),
    input.brand,
  );
  return { subject: t.cancelSubject(input.documentTitle), text, html };
}

/** Notices to the tenant's notification address (tenant settings), in Spanish and English: the tenant's language is not known. */
export function tenantDeclineNotice(input: { documentTitle: string; documentId: string; signee: string; reason: string; cancelled: number }): RenderedEmail {
  const lines = [
    `${input.signee} ha rechazado firmar «${input.documentTitle}». / ${input.signee} declined to sign "${input.documentTitle}".`,
    '',
    `Motivo / Reason: ${input.reason}`,
    '',
    `Solicitudes canceladas / Requests cancelled: ${input.cancelled}`,
    `Documento / Document: ${input.documentId}`,
    '',
  ];
  return {
    subject: `Firma rechazada / Signature declined: ${input.documentTitle}`,
    text: lines.join('\n'),
    html: layout('es', lines.filter(Boolean).map((l) => `<p>${escapeHtml(l)}</p>`).join('')),
  };
}

export function tenantCompletionNotice(input: { documentTitle: string; documentId: string; attached: boolean }): RenderedEmail {
  const lines = [
    `Todas las partes han firmado «${input.documentTitle}». / Every party signed "${input.documentTitle}".`,
    input.attached
      ? 'Se adjunta el PDF final. / The final PDF is attached.'
      : `PDF final / Final PDF: GET /firma/documentos/${input.documentId}/final-pdf`,
    `Documento / Document: ${input.documentId}`,
    '',
  ];
  return {
    subject: `Documento firmado / Document signed: ${input.documentTitle}`,
    text: lines.join('\n'),
    html: layout('es', lines.filter(Boolean).map((l) => `<p>${escapeHtml(l)}</p>`).join('')),
  };
}

/** A reminder, or the expiry warning: the link email again, its subject prefixed. */
export function reminderEmail(kind: 'reminder' | 'expiry_warning', input: Parameters<typeof signingLinkEmail>[0]): RenderedEmail {
  const email = signingLinkEmail(input);
  const t = EMAIL_TEXT[input.locale];
  return { ...email, subject: `${kind === 'reminder' ? t.reminderPrefix : t.expiryWarningPrefix}: ${email.subject}` };
}
