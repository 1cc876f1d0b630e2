import { escapeHtml } from '@firma-riesgo/service-kit';
import { PAGE_STYLE } from './page-style';

/**
 * The HTML frame every public esign page shares (signing, verification). Features write
 * only their page bodies and strings; the frame, the stylesheet and the nonce'd tags live
 * here so that no feature imports another feature's page code.
 */

/** Re-exported so page bodies take every HTML helper from this one module. */
export { escapeHtml };

/** The languages of the verification pages. */
export type Locale = 'es' | 'en';
/** Every language a public page or email may be in: the signee's also speak Catalan, Galician and Basque. */
export const PAGE_LOCALES = ['es', 'en', 'ca', 'gl', 'eu'] as const;
export type PageLocale = (typeof PAGE_LOCALES)[number];

/** BCP 47 tags for Intl and `lang`. */
export const LOCALE_TAGS: Record<PageLocale, string> = { es: 'es-ES', en: 'en-GB', ca: 'ca-ES', gl: 'gl-ES', eu: 'eu-ES' };

/** Long date and time in UTC, in the page's language: the public pages never guess a time zone. */
export function formatDate(date: Date, locale: PageLocale): string {
  return `${new Intl.DateTimeFormat(LOCALE_TAGS[locale], { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
}

/**
 * A whole page: lang, viewport, noindex, and the style (and the page's own script, if it
 * has one) under the response's CSP nonce, since the CSP refuses inline code without it.
 */
/**
 * `accent`: a tenant's colour (`#rrggbb`, validated and contrast-checked by the branding
 * feature) for buttons; anything else is ignored, so no style text comes from a tenant.
 */
export function renderPage(locale: PageLocale, title: string, nonce: string, body: string, script?: string, theme?: { accent: string | null; css?: string }): string {
  const accent = (theme?.accent && /^#[0-9a-f]{6}$/.test(theme.accent) ? `:root{--accent:${theme.accent}}` : '') + (theme?.css ?? '');
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${PAGE_STYLE}${accent}</style>
</head>
<body>
${body}
${script ? `<script nonce="${nonce}">${script}</script>` : ''}
</body>
</html>`;
}

/** A page that only says one thing: a heading and a paragraph (not found, expired, ...). */
export function renderMessagePage(locale: PageLocale, nonce: string, title: string, text: string): string {
  return renderPage(locale, title, nonce, `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main>`);
}
