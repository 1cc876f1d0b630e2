import { escapeHtml } from '@firma-riesgo/service-kit';
import { maskEmail } from '../signing-requests/mask-email';
import { MAX_OTP_FAILURES } from '../signing-requests/service';
import type { SigningContext } from './service';

export type Locale = 'es' | 'en';

const TEXT = {
  es: {
    skip: 'Saltar al formulario de firma',
    asks: (tenant: string) => `${tenant} le pide que firme este documento`,
    step1: '1. Lea el documento',
    open: 'Abrir el documento (PDF) en una pestaña nueva',
    frameTitle: (title: string) => `Documento: ${title}`,
    message: 'Mensaje del remitente',
    step2: '2. Declaración',
    declaration:
      'He leído el documento y acepto firmarlo electrónicamente. Entiendo que mi firma, junto con la fecha, la dirección IP y el navegador que uso, quedará registrada.',
    step3: '3. Código de verificación',
    otpHelp: (hint: string) => `Le enviaremos un código de 6 dígitos a ${hint}. Caduca a los 10 minutos.`,
    sendCode: 'Enviar código',
    resendCode: 'Enviar otro código',
    codeLabel: 'Código de 6 dígitos',
    attemptsLeft: (n: number) => `Le quedan ${n} intentos.`,
    step4: '4. Firma manuscrita (opcional)',
    padHelp: 'Si lo desea, dibuje su firma con el ratón, el dedo o un lápiz. No es obligatorio.',
    padLabel: 'Área para dibujar la firma',
    clear: 'Borrar dibujo',
    noscript: 'Sin JavaScript no se puede dibujar la firma; puede firmar igualmente.',
    sign: 'Firmar el documento',
    expires: (date: string) => `El enlace caduca el ${date}.`,
    notices: {
      'codigo-enviado': 'Le hemos enviado el código por correo electrónico. Escríbalo abajo.',
    } as Record<string, string>,
    errors: {
      declaration_required: 'Marque la casilla de la declaración para continuar.',
      DOCUMENT_NOT_VIEWED: 'Abra el documento antes de pedir el código.',
      OTP_RATE_LIMITED: 'Ha pedido demasiados códigos. Espere un poco antes de pedir otro.',
      OTP_NOT_REQUESTED: 'Pida primero el código.',
      OTP_EXPIRED: 'El código ha caducado. Pida uno nuevo.',
      INVALID_OTP: 'El código no es correcto.',
      code_format: 'Escriba los 6 dígitos del código.',
      png_invalid: 'No se pudo leer el dibujo de la firma. Bórrelo y vuelva a dibujarlo.',
    } as Record<string, string>,
    errorTitle: 'No se pudo completar el paso',
    signedTitle: 'Documento firmado',
    signedAt: (date: string) => `Firmó el documento el ${date}. Gracias.`,
    download: 'Descargar su copia firmada (PDF)',
    sealing: 'Su copia sellada se está preparando. Recargue esta página en unos instantes para descargarla.',
    level: (level: string) => `Firma electrónica con sello PAdES ${level}.`,
    continue: 'Continuar',
    expiredTitle: 'Enlace caducado',
    expiredBody: 'Este enlace de firma ha caducado. Pida al remitente que le envíe uno nuevo.',
    cancelledTitle: 'Solicitud cancelada',
    cancelledBody: 'El remitente ha retirado este documento. El enlace ya no es válido.',
    lockedTitle: 'Solicitud bloqueada',
    lockedBody: `Se ha escrito un código incorrecto ${MAX_OTP_FAILURES} veces y la solicitud se ha bloqueado por seguridad. Pida al remitente una nueva solicitud.`,
    erasedTitle: 'Documento suprimido',
    erasedBody: 'El remitente ha suprimido este documento y sus copias.',
    notFoundTitle: 'Enlace no válido',
    notFoundBody: 'Este enlace de firma no existe. Compruebe que lo ha copiado entero.',
  },
  en: {
    skip: 'Skip to the signing form',
    asks: (tenant: string) => `${tenant} asks you to sign this document`,
    step1: '1. Read the document',
    open: 'Open the document (PDF) in a new tab',
    frameTitle: (title: string) => `Document: ${title}`,
    message: 'Message from the sender',
    step2: '2. Declaration',
    declaration:
      'I have read the document and agree to sign it electronically. I understand that my signature is recorded with the time, my IP address and the browser I use.',
    step3: '3. Verification code',
    otpHelp: (hint: string) => `We will send a 6-digit code to ${hint}. It expires after 10 minutes.`,
    sendCode: 'Send code',
    resendCode: 'Send another code',
    codeLabel: '6-digit code',
    attemptsLeft: (n: number) => `You have ${n} attempts left.`,
    step4: '4. Handwritten signature (optional)',
    padHelp: 'If you wish, draw your signature with the mouse, a finger or a pen. It is optional.',
    padLabel: 'Area to draw your signature',
    clear: 'Clear drawing',
    noscript: 'Drawing a signature needs JavaScript; you can sign without it.',
    sign: 'Sign the document',
    expires: (date: string) => `The link expires on ${date}.`,
    notices: {
      'codigo-enviado': 'We have emailed you the code. Type it below.',
    } as Record<string, string>,
    errors: {
      declaration_required: 'Tick the declaration box to continue.',
      DOCUMENT_NOT_VIEWED: 'Open the document before asking for the code.',
      OTP_RATE_LIMITED: 'You asked for too many codes. Wait a while before asking again.',
      OTP_NOT_REQUESTED: 'Ask for the code first.',
      OTP_EXPIRED: 'The code has expired. Ask for a new one.',
      INVALID_OTP: 'The code is not correct.',
      code_format: 'Type the 6 digits of the code.',
      png_invalid: 'The drawn signature could not be read. Clear it and draw it again.',
    } as Record<string, string>,
    errorTitle: 'The step could not be completed',
    signedTitle: 'Document signed',
    signedAt: (date: string) => `You signed the document on ${date}. Thank you.`,
    download: 'Download your signed copy (PDF)',
    sealing: 'Your sealed copy is being prepared. Reload this page in a moment to download it.',
    level: (level: string) => `Electronic signature with a PAdES ${level} seal.`,
    continue: 'Continue',
    expiredTitle: 'Link expired',
    expiredBody: 'This signing link has expired. Ask the sender for a new one.',
    cancelledTitle: 'Request cancelled',
    cancelledBody: 'The sender withdrew this document. The link is no longer valid.',
    lockedTitle: 'Request locked',
    lockedBody: `A wrong code was typed ${MAX_OTP_FAILURES} times and the request was locked for your safety. Ask the sender for a new request.`,
    erasedTitle: 'Document deleted',
    erasedBody: 'The sender deleted this document and its copies.',
    notFoundTitle: 'Invalid link',
    notFoundBody: 'This signing link does not exist. Check that you copied all of it.',
  },
} as const;

export function formatDate(date: Date, locale: Locale): string {
  return `${new Intl.DateTimeFormat(locale === 'es' ? 'es-ES' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
}

const STYLE = `
:root{color-scheme:light}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1a1a1a;background:#fff;line-height:1.5}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
header,main{max-width:52rem;margin:0 auto;padding:1rem 1.25rem}
h1{font-size:1.6rem;margin:.25rem 0}h2{font-size:1.2rem;margin-top:1.75rem}
iframe{width:100%;height:70vh;border:1px solid #767676}
a{color:#0645ad}
button{font:inherit;padding:.6rem 1.1rem;border-radius:4px;border:2px solid #0b5394;background:#0b5394;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b5394}
input[type=text]{font:inherit;font-size:1.3rem;letter-spacing:.25em;width:9ch;padding:.35rem;border:2px solid #555;border-radius:4px}
input[type=checkbox]{width:1.3rem;height:1.3rem;margin-right:.5rem;vertical-align:top}
:focus-visible{outline:3px solid #e37400;outline-offset:2px}
.check{display:flex;align-items:flex-start;gap:.25rem}
.alert{border:2px solid #b00020;background:#fdecea;padding:.75rem 1rem;border-radius:4px}
.notice{border:2px solid #1e7b34;background:#e9f6ec;padding:.75rem 1rem;border-radius:4px}
canvas{display:block;width:100%;max-width:500px;height:auto;aspect-ratio:500/160;border:2px dashed #555;border-radius:4px;touch-action:none;background:#fff}
.row{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:.5rem 0}
.hint{color:#444}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #767676;padding:.4rem .6rem;text-align:left;vertical-align:top}th{background:#f0f0f0}
code{word-break:break-all}
`;

const PAD_SCRIPT = `(function(){
var c=document.getElementById('pad');if(!c||!c.getContext)return;
var ctx=c.getContext('2d'),drawn=false,down=false;ctx.lineWidth=2.5;ctx.lineCap='round';ctx.lineJoin='round';ctx.strokeStyle='#000';
function pos(e){var r=c.getBoundingClientRect();return{x:(e.clientX-r.left)*c.width/r.width,y:(e.clientY-r.top)*c.height/r.height};}
c.addEventListener('pointerdown',function(e){down=true;if(c.setPointerCapture)c.setPointerCapture(e.pointerId);var p=pos(e);ctx.beginPath();ctx.moveTo(p.x,p.y);e.preventDefault();});
c.addEventListener('pointermove',function(e){if(!down)return;var p=pos(e);ctx.lineTo(p.x,p.y);ctx.stroke();drawn=true;});
c.addEventListener('pointerup',function(){down=false;});c.addEventListener('pointercancel',function(){down=false;});
document.getElementById('pad-clear').addEventListener('click',function(){ctx.clearRect(0,0,c.width,c.height);drawn=false;});
document.getElementById('firmar').addEventListener('submit',function(){document.getElementById('firma_imagen_b64').value=drawn?c.toDataURL('image/png'):'';});
})();`;

/** The page shell every public esign page shares: lang, viewport, noindex, nonce'd styles. */
export function page(locale: Locale, title: string, nonce: string, body: string, script = false): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
${body}
${script ? `<script nonce="${nonce}">${PAD_SCRIPT}</script>` : ''}
</body>
</html>`;
}

function simple(locale: Locale, nonce: string, title: string, text: string, extra = ''): string {
  return page(locale, title, nonce, `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>${extra}</main>`);
}

export function renderNotFound(locale: Locale, nonce: string): string {
  const t = TEXT[locale];
  return simple(locale, nonce, t.notFoundTitle, t.notFoundBody);
}

/** The signing page, or the page that explains why the link cannot be used. */
export function renderSigningPage(ctx: SigningContext, options: { locale: Locale; nonce: string; token: string; notice?: string; error?: string }): string {
  const { locale, nonce } = options;
  const t = TEXT[locale];
  const { request, document } = ctx;
  const base = `/firma/firmar/${encodeURIComponent(options.token)}`;
  const title = document.title ?? document.filename;
  if (ctx.status === 'signed') {
    if (document.erasedAt) return simple(locale, nonce, t.erasedTitle, t.erasedBody);
    const parts = [`<p role="status">${escapeHtml(t.signedAt(formatDate(request.signedAt!, locale)))}</p>`];
    if (request.sealStatus === 'sealed') {
      parts.push(`<p>${escapeHtml(t.level(request.signatureLevel ?? ''))}</p>`, `<p><a href="${base}/firmado">${escapeHtml(t.download)}</a></p>`);
    } else {
      parts.push(`<p>${escapeHtml(t.sealing)}</p>`);
    }
    if (request.redirectUrl) parts.push(`<p><a href="${escapeHtml(request.redirectUrl)}">${escapeHtml(t.continue)}</a></p>`);
    return page(locale, `${t.signedTitle}: ${title}`, nonce, `<main><h1>${escapeHtml(t.signedTitle)}</h1><p><strong>${escapeHtml(title)}</strong></p>${parts.join('')}</main>`);
  }
  if (ctx.status === 'expired') return simple(locale, nonce, t.expiredTitle, t.expiredBody);
  if (ctx.status === 'cancelled') return simple(locale, nonce, t.cancelledTitle, t.cancelledBody);
  if (request.lockedAt) return simple(locale, nonce, t.lockedTitle, t.lockedBody);

  const error = options.error ? t.errors[options.error] : undefined;
  const notice = options.notice ? t.notices[options.notice] : undefined;
  const attemptsLeft = MAX_OTP_FAILURES - request.otpFailedAttempts;
  const hint = maskEmail(request.signeeEmail);
  const body = `
<a class="skip" href="#firmar">${escapeHtml(t.skip)}</a>
<header>
  <p>${escapeHtml(t.asks(ctx.tenant))}</p>
  <h1>${escapeHtml(title)}</h1>
  <p class="hint">${escapeHtml(t.expires(formatDate(request.expiresAt, locale)))}</p>
</header>
<main>
${error ? `<div class="alert" role="alert" id="error"><strong>${escapeHtml(t.errorTitle)}:</strong> ${escapeHtml(error)}${options.error === 'INVALID_OTP' ? ` ${escapeHtml(t.attemptsLeft(attemptsLeft))}` : ''}</div>` : ''}
${notice ? `<div class="notice" role="status">${escapeHtml(notice)}</div>` : ''}
${request.message ? `<section aria-labelledby="msg-h"><h2 id="msg-h">${escapeHtml(t.message)}</h2><p>${escapeHtml(request.message)}</p></section>` : ''}
<section aria-labelledby="doc-h">
  <h2 id="doc-h">${escapeHtml(t.step1)}</h2>
  <iframe src="${base}/documento" title="${escapeHtml(t.frameTitle(title))}"></iframe>
  <p><a href="${base}/documento" target="_blank" rel="noopener">${escapeHtml(t.open)}</a></p>
</section>
<form id="firmar" method="post" action="${base}/confirmar">
  <section aria-labelledby="decl-h">
    <h2 id="decl-h">${escapeHtml(t.step2)}</h2>
    <div class="check">
      <input type="checkbox" id="declaration_accepted" name="declaration_accepted" value="true" required>
      <label for="declaration_accepted">${escapeHtml(t.declaration)}</label>
    </div>
  </section>
  <section aria-labelledby="otp-h">
    <h2 id="otp-h">${escapeHtml(t.step3)}</h2>
    <p id="otp-help">${escapeHtml(t.otpHelp(hint))}</p>
    <div class="row"><button type="submit" class="secondary" formaction="${base}/otp" formnovalidate>${escapeHtml(ctx.otpOutstanding ? t.resendCode : t.sendCode)}</button></div>
    <div class="row">
      <label for="code">${escapeHtml(t.codeLabel)}</label>
      <input type="text" id="code" name="otp_code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" aria-describedby="otp-help"${options.error === 'INVALID_OTP' || options.error === 'code_format' ? ' aria-invalid="true"' : ''}>
    </div>
  </section>
  <section aria-labelledby="pad-h">
    <h2 id="pad-h">${escapeHtml(t.step4)}</h2>
    <p id="pad-help">${escapeHtml(t.padHelp)}</p>
    <canvas id="pad" width="500" height="160" role="img" aria-label="${escapeHtml(t.padLabel)}" aria-describedby="pad-help"></canvas>
    <div class="row"><button type="button" class="secondary" id="pad-clear">${escapeHtml(t.clear)}</button></div>
    <input type="hidden" name="firma_imagen_b64" id="firma_imagen_b64" value="">
    <noscript><p>${escapeHtml(t.noscript)}</p></noscript>
  </section>
  <div class="row"><button type="submit">${escapeHtml(t.sign)}</button></div>
</form>
</main>`;
  return page(locale, `${title}`, nonce, body, true);
}

export function renderGonePage(locale: Locale, nonce: string, kind: 'expired' | 'cancelled' | 'locked' | 'erased'): string {
  const t = TEXT[locale];
  const map = {
    expired: [t.expiredTitle, t.expiredBody],
    cancelled: [t.cancelledTitle, t.cancelledBody],
    locked: [t.lockedTitle, t.lockedBody],
    erased: [t.erasedTitle, t.erasedBody],
  } as const;
  return simple(locale, nonce, map[kind][0], map[kind][1]);
}
