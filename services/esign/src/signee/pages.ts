import { maskEmail } from '../signing-requests/mask-email';
import { otpAttemptsLeft } from '../signing-requests/rules';
import { escapeHtml, formatDate, renderMessagePage, renderPage } from '../html/page-shell';
import type { SigneeLocale as Locale } from '../signing-requests/email-strings';
import { SIGNEE_TEXT } from './page-strings';
import type { SigningContext } from './service';
import { SIGNATURE_PAD_SCRIPT } from './signature-pad-script';
import { fieldInputs, fieldOutlines, fieldStyles } from './field-inputs';
import { FIELD_TEXT } from './field-strings';

/** The signee's page bodies. Strings: page-strings.ts; frame and style: html/page-shell.ts. */


/** Pages shown as images on the signing page; a longer document shows these and links the whole PDF. */
export const MAX_PAGES_SHOWN = 100;
const WIDTHS = [480, 960, 1440];

/**
 * The document as page images (every device shows them; phones have no inline PDF viewer):
 * sized by `srcset` for the viewport, with width and height so nothing shifts while they
 * load, lazy after the first two.
 */
function pageImages(ctx: SigningContext, base: string, t: (typeof SIGNEE_TEXT)[Locale], locale: Locale): string {
  const total = ctx.document.pages;
  const shown = Math.min(total, MAX_PAGES_SHOWN);
  const images = Array.from({ length: shown }, (_, i) => {
    const n = i + 1;
    const size = ctx.document.pageSizes?.[i];
    const dims = size ? ` width="960" height="${Math.round((960 * size[1]) / size[0])}"` : '';
    const srcset = WIDTHS.map((w) => `${base}/paginas/${n}?ancho=${w} ${w}w`).join(', ');
    const img = `<img src="${base}/paginas/${n}?ancho=960" srcset="${srcset}" sizes="(max-width: 52rem) 100vw, 50rem"${dims} loading="${n <= 2 ? 'eager' : 'lazy'}" decoding="async" alt="${escapeHtml(t.pageAlt(n, total))}">`;
    // With fields, each page image is framed and its fields outlined over it (field-inputs.ts).
    const fields = ctx.request.fields;
    return fields ? `<li><div class="page-frame">${img}${fieldOutlines(fields, n, total, locale)}</div></li>` : `<li>${img}</li>`;
  });
  const more = total > shown ? `<p class="hint">${escapeHtml(t.morePages(shown, total))}</p>` : '';
  return `<ol class="pages" aria-label="${escapeHtml(t.frameTitle(ctx.document.title ?? ctx.document.filename))}">${images.join('')}</ol>${more}`;
}

/**
 * The text of every page, escaped, under a heading per page: for screen readers, for
 * copying, and for anyone the images do not serve. Collapsed until opened.
 */
function documentText(ctx: SigningContext, t: (typeof SIGNEE_TEXT)[Locale]): string {
  if (!ctx.text) return '';
  const total = ctx.document.pages;
  const pages = ctx.text.pages.map(
    (text, i) => `<h3>${escapeHtml(t.textPage(i + 1, total))}</h3>${text ? `<p class="page-text">${escapeHtml(text)}</p>` : `<p class="hint">${escapeHtml(t.textEmpty)}</p>`}`,
  );
  const truncated = ctx.text.truncated ? `<p class="hint">${escapeHtml(t.textTruncated)}</p>` : '';
  return `<details class="doc-text"><summary>${escapeHtml(t.textTitle)}</summary>${pages.join('')}${truncated}</details>`;
}

/** The field an error code concerns: its message is shown next to it, and the summary links there. */
const ERROR_FIELD: Record<string, 'declaration_accepted' | 'code' | 'firma_nombre' | 'doc-h' | 'campos-h'> = {
  field_required: 'campos-h',
  field_invalid: 'campos-h',
  declaration_required: 'declaration_accepted',
  DOCUMENT_NOT_VIEWED: 'doc-h',
  OTP_RATE_LIMITED: 'code',
  OTP_NOT_REQUESTED: 'code',
  OTP_EXPIRED: 'code',
  INVALID_OTP: 'code',
  code_format: 'code',
  png_invalid: 'firma_nombre',
};

export function renderNotFound(locale: Locale, nonce: string): string {
  const t = SIGNEE_TEXT[locale];
  return renderMessagePage(locale, nonce, t.notFoundTitle, t.notFoundBody);
}

/** The signing page, or the page that explains why the link cannot be used. */
/**
 * `origen`: the framing page's origin (already checked against the tenant's list), kept in
 * the form posts' URLs so the page they return to posts its events there too.
 */
export function renderSigningPage(ctx: SigningContext, options: { locale: Locale; nonce: string; token: string; notice?: string; error?: string; origen?: string }): string {
  const { locale, nonce } = options;
  const t = SIGNEE_TEXT[locale];
  const { request, document } = ctx;
  const base = `/firma/firmar/${encodeURIComponent(options.token)}`;
  const title = document.title ?? document.filename;
  const keep = options.origen ? `?origen=${encodeURIComponent(options.origen)}` : '';
  if (ctx.status === 'signed') {
    if (document.erasedAt) return renderMessagePage(locale, nonce, t.erasedTitle, t.erasedBody);
    const parts = [`<p role="status">${escapeHtml(t.signedAt(formatDate(request.signedAt!, locale)))}</p>`];
    if (request.sealStatus === 'sealed') {
      parts.push(`<p>${escapeHtml(t.level(request.signatureLevel ?? ''))}</p>`, `<p><a href="${base}/firmado">${escapeHtml(t.download)}</a></p>`);
    } else {
      parts.push(`<p>${escapeHtml(t.sealing)}</p>`);
    }
    if (request.redirectUrl) parts.push(`<p><a href="${escapeHtml(request.redirectUrl)}">${escapeHtml(t.continue)}</a></p>`);
    return renderPage(locale, `${t.signedTitle}: ${title}`, nonce, `<main><h1>${escapeHtml(t.signedTitle)}</h1><p><strong>${escapeHtml(title)}</strong></p>${parts.join('')}</main>`);
  }
  if (ctx.status === 'approved') {
    if (document.erasedAt) return renderMessagePage(locale, nonce, t.erasedTitle, t.erasedBody);
    return renderMessagePage(locale, nonce, t.approvedTitle, t.approvedBody(formatDate(request.signedAt!, locale)));
  }
  if (ctx.status === 'declined') return renderMessagePage(locale, nonce, t.declinedTitle, t.declinedBody);
  if (ctx.status === 'waiting') return renderMessagePage(locale, nonce, t.waitingTitle, t.waitingBody(ctx.waitingFor));
  if (ctx.status === 'expired') return renderMessagePage(locale, nonce, t.expiredTitle, t.expiredBody);
  if (ctx.status === 'cancelled') return renderMessagePage(locale, nonce, t.cancelledTitle, t.cancelledBody);
  if (request.lockedAt) return renderMessagePage(locale, nonce, t.lockedTitle, t.lockedBody);

  const errorText = options.error ? (t.errors[options.error] ?? (FIELD_TEXT[locale].errors as Record<string, string>)[options.error]) : undefined;
  const error = errorText && options.error === 'INVALID_OTP' ? `${errorText} ${t.attemptsLeft(otpAttemptsLeft(request))}` : errorText;
  const errorField = error ? (ERROR_FIELD[options.error!] ?? null) : null;
  // The message beside its field, tied to it for screen readers; the top alert links to it.
  const inline = (field: string) => (errorField === field ? `<p class="field-error" id="${field}-error">${escapeHtml(error!)}</p>` : '');
  const invalid = (field: string, describedBy: string) =>
    errorField === field ? ` aria-invalid="true" aria-describedby="${field}-error ${describedBy}"` : ` aria-describedby="${describedBy}"`;
  const notice = options.notice ? t.notices[options.notice] : undefined;
  const hint = maskEmail(request.signeeEmail);
  const body = `
<a class="skip" href="#firmar">${escapeHtml(t.skip)}</a>
<header>
  ${ctx.brand.logoPath ? `<img class="brand-logo" src="${escapeHtml(ctx.brand.logoPath)}" alt="${escapeHtml(ctx.tenant)}">` : ''}
  <p>${escapeHtml(t.asks(ctx.tenant))}</p>
  <h1>${escapeHtml(title)}</h1>
  <p class="hint">${escapeHtml(t.expires(formatDate(request.expiresAt, locale)))}</p>
</header>
<main>
${error ? `<div class="alert" role="alert" id="error"><strong>${escapeHtml(t.errorTitle)}:</strong> ${errorField ? `<a href="#${errorField}">${escapeHtml(error)}</a>` : escapeHtml(error)}</div>` : ''}
${notice ? `<div class="notice" role="status">${escapeHtml(notice)}</div>` : ''}
${request.message ? `<section aria-labelledby="msg-h"><h2 id="msg-h">${escapeHtml(t.message)}</h2><p>${escapeHtml(request.message)}</p></section>` : ''}
<section aria-labelledby="doc-h">
  <h2 id="doc-h" tabindex="-1">${escapeHtml(t.step1)}</h2>
  ${inline('doc-h')}
  ${pageImages(ctx, base, t, locale)}
  <p><a href="${base}/documento" target="_blank" rel="noopener">${escapeHtml(t.open)}</a></p>
  ${documentText(ctx, t)}
</section>
<form id="firmar" method="post" action="${base}/confirmar${escapeHtml(keep)}">
  <section aria-labelledby="decl-h">
    <h2 id="decl-h">${escapeHtml(t.step2)}</h2>
    ${inline('declaration_accepted')}
    <div class="check">
      <input type="checkbox" id="declaration_accepted" name="declaration_accepted" value="true" required${errorField === 'declaration_accepted' ? ' aria-invalid="true" aria-describedby="declaration_accepted-error"' : ''}>
      <label for="declaration_accepted">${escapeHtml(t.declaration)}</label>
    </div>
  </section>
  <section aria-labelledby="otp-h">
    <h2 id="otp-h">${escapeHtml(t.step3)}</h2>
    <p id="otp-help">${escapeHtml(t.otpHelp(hint))}</p>
    <div class="row"><button type="submit" class="secondary" formaction="${base}/otp${escapeHtml(keep)}" formnovalidate>${escapeHtml(ctx.otpOutstanding ? t.resendCode : t.sendCode)}</button></div>
    <div class="row">
      <label for="code">${escapeHtml(t.codeLabel)}</label>
      ${inline('code')}
      <input type="text" id="code" name="otp_code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6"${invalid('code', 'otp-help')}>
    </div>
  </section>
  ${request.role === 'approver' ? '' : `<section aria-labelledby="pad-h">
    <h2 id="pad-h">${escapeHtml(t.step4)}</h2>
    <p id="pad-help">${escapeHtml(t.padHelp)}</p>
    <canvas id="pad" width="500" height="160" role="img" aria-label="${escapeHtml(t.padLabel)}" aria-describedby="pad-help"></canvas>
    <div class="row"><button type="button" class="secondary" id="pad-clear">${escapeHtml(t.clear)}</button></div>
    <input type="hidden" name="firma_imagen_b64" id="firma_imagen_b64" value="">
    <noscript><p>${escapeHtml(t.noscript)}</p></noscript>
    <div class="row">
      <label for="firma_nombre">${escapeHtml(t.typedLabel)}</label>
      ${inline('firma_nombre')}
      <input type="text" class="name" id="firma_nombre" name="firma_nombre" maxlength="100" autocomplete="name"${invalid('firma_nombre', 'typed-help')}>
      <p class="hint" id="typed-help">${escapeHtml(t.typedHelp)}</p>
    </div>
  </section>`}
  ${request.fields ? fieldInputs(request.fields, document.pages, locale, errorField === 'campos-h' ? { id: 'campos-h', text: error! } : null) : ''}
  <div class="row"><button type="submit">${escapeHtml(request.role === 'approver' ? t.approve : t.sign)}</button></div>
</form>
<form id="rechazar" method="post" action="${base}/rechazar${escapeHtml(keep)}">
  <section aria-labelledby="decline-h">
    <h2 id="decline-h">${escapeHtml(t.declineTitle)}</h2>
    <p id="decline-help">${escapeHtml(t.declineHelp)}</p>
    <div class="row">
      <label for="motivo">${escapeHtml(t.declineLabel)}</label>
      <textarea id="motivo" name="motivo" required maxlength="500" rows="3" aria-describedby="decline-help"></textarea>
    </div>
    <div class="row"><button type="submit" class="secondary">${escapeHtml(t.declineButton)}</button></div>
  </section>
</form>
</main>`;
  return renderPage(locale, `${title}`, nonce, body, SIGNATURE_PAD_SCRIPT, { accent: ctx.brand.accentColor, ...(request.fields ? { css: fieldStyles(request.fields) } : {}) });
}
