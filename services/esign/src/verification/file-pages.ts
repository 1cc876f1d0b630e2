import { escapeHtml, formatDate, renderPage, type Locale } from '../html/page-shell';
import { FILE_TEXT } from './page-strings';
import type { TFileVerification } from './schemas';

/** The search form of GET /verificar; `error` (already in the page's language) when a search was refused. */
export function renderSearchPage(locale: Locale, nonce: string, options: { error?: string; documentId?: string } = {}): string {
  const t = FILE_TEXT[locale];
  const lang = `<input type="hidden" name="lang" value="${locale}">`;
  const invalid = options.error ? ' aria-invalid="true" aria-describedby="id-hint id-error"' : ' aria-describedby="id-hint"';
  const body = `<main>
<h1>${escapeHtml(t.searchTitle)}</h1>
<p>${escapeHtml(t.searchIntro)}</p>
${options.error ? `<div role="alert" class="error"><h2>${escapeHtml(t.errorHeading)}</h2><p id="id-error">${escapeHtml(options.error)}</p></div>` : ''}
<section aria-labelledby="by-id">
<h2 id="by-id">${escapeHtml(t.byId)}</h2>
<form method="get" action="/verificar">
${lang}
<p><label for="document_id">${escapeHtml(t.idLabel)}</label></p>
<p class="hint" id="id-hint">${escapeHtml(t.idHint)}</p>
<p><input type="search" id="document_id" name="document_id" required autocomplete="off" spellcheck="false" maxlength="200" value="${escapeHtml(options.documentId ?? '')}"${invalid}></p>
<p><button type="submit">${escapeHtml(t.search)}</button></p>
</form>
</section>
<section aria-labelledby="by-file">
<h2 id="by-file">${escapeHtml(t.byFile)}</h2>
<form method="post" action="/verificar?lang=${locale}" enctype="multipart/form-data">
<p><label for="file">${escapeHtml(t.fileLabel)}</label></p>
<p class="hint" id="file-hint">${escapeHtml(t.fileHint)}</p>
<p><input type="file" id="file" name="file" accept="application/pdf,.pdf" required aria-describedby="file-hint"></p>
<p><label for="at">${escapeHtml(t.atLabel)}</label></p>
<p class="hint" id="at-hint">${escapeHtml(t.atHint)}</p>
<p><input type="datetime-local" id="at" name="at" step="1" aria-describedby="at-hint"></p>
<p><button type="submit">${escapeHtml(t.check)}</button></p>
</form>
</section>
</main>`;
  return renderPage(locale, t.searchTitle, nonce, body);
}

const STATUS = {
  es: { draft: 'borrador', pending: 'pendiente de firma', signed: 'firmado', expired: 'caducado', erased: 'suprimido', declined: 'rechazado' },
  en: { draft: 'draft', pending: 'awaiting signatures', signed: 'signed', expired: 'expired', erased: 'deleted', declined: 'declined' },
} as const;

/** The report of an uploaded PDF: the verdict first, then each signature, then the technical detail. */
export function renderFileReport(report: TFileVerification, locale: Locale, nonce: string): string {
  const t = FILE_TEXT[locale];
  const yesNo = (v: boolean | null) => (v === null ? t.notApplicable : v ? t.yes : t.no);
  const time = (iso: string | null) => (iso ? `<time datetime="${escapeHtml(iso)}">${escapeHtml(formatDate(new Date(iso), locale))}</time>` : '—');
  const verdict = report.valid ? t.validVerdict : t.invalidVerdict;
  const notes = [report.signatures.length === 0 ? t.noSignatures : null, report.modified_after_last_signature ? t.modified : null]
    .filter((n): n is string => n !== null)
    .map((n) => `<p>${escapeHtml(n)}</p>`);
  const known = report.known_document;
  if (known) {
    // The id is a uuid from our database; escaped and encoded all the same.
    const href = `/verificar/${encodeURIComponent(known.document_id)}?lang=${locale}`;
    notes.push(`<p>${escapeHtml(t.known(STATUS[locale][known.status]))} <a href="${escapeHtml(href)}">${escapeHtml(known.name)}</a> (${escapeHtml(t.knownLink)})</p>`);
  }
  const signatures = report.signatures
    .map((s, i) => {
      const passed = s.integrity && s.signature_valid && s.covers_document && s.ess_certificate_matches && s.timestamp_valid !== false;
      const cert = s.certificate;
      return `<section aria-labelledby="sig-${i}">
<h2 id="sig-${i}">${escapeHtml(t.signature(i + 1))}: ${escapeHtml(passed ? t.passed : t.failed)}</h2>
<dl>
<dt>${escapeHtml(t.signer)}</dt><dd>${escapeHtml(s.signer ?? '—')}</dd>
<dt>${escapeHtml(t.field)}</dt><dd>${escapeHtml(s.field ?? '—')}</dd>
<dt>${escapeHtml(t.signingTime)}</dt><dd>${time(s.signing_time)}</dd>
<dt>${escapeHtml(t.timestampTime)}</dt><dd>${time(s.timestamp_time)}</dd>
<dt>${escapeHtml(t.level)}</dt><dd>${escapeHtml(s.level ?? '—')}</dd>
<dt>${escapeHtml(t.kind)}</dt><dd>${escapeHtml(t.kinds[s.kind])}</dd>
<dt>${escapeHtml(t.detectedLevel)}</dt><dd>${escapeHtml(s.detected_level ?? '—')}</dd>
<dt>${escapeHtml(t.indication)}</dt><dd><code>${escapeHtml(s.sub_indication ? `${s.indication} / ${s.sub_indication}` : s.indication)}</code></dd>
<dt>${escapeHtml(t.revocation)}</dt><dd>${escapeHtml(t.revocationStatus[s.revocation.status])}${s.revocation.revoked_at ? ` ${escapeHtml(t.revokedOn)} ${time(s.revocation.revoked_at)}` : ''}${s.revocation.source ? ` (${escapeHtml(t.revocationSource[s.revocation.source])})` : ''}</dd>
${s.chain_revocation
  .filter((r) => r.depth > 0 || r.chain === 'signature_timestamp')
  .map(
    (r) =>
      `<dt>${escapeHtml(t.chainRevocation[r.chain])} (${escapeHtml(r.subject)})</dt><dd>${escapeHtml(t.revocationStatus[r.status])}${r.revoked_at ? ` ${escapeHtml(t.revokedOn)} ${time(r.revoked_at)}` : ''}${r.source ? ` (${escapeHtml(t.revocationSource[r.source])})` : ''}</dd>`,
  )
  .join('\n')}
<dt>${escapeHtml(t.poeTime)}</dt><dd>${time(s.poe_time)}</dd>
</dl>
${s.problems.length ? `<h3>${escapeHtml(t.problems)}</h3>\n<ul>${s.problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>` : ''}
<table>
<caption>${escapeHtml(t.checks)}</caption>
<tbody>
${(
  [
    [t.integrity, s.integrity],
    [t.signatureValid, s.signature_valid],
    [t.coversDocument, s.covers_document],
    [t.essMatches, s.ess_certificate_matches],
    [t.timestampValid, s.timestamp_valid],
    [t.chainTrusted, s.chain_trusted],
  ] as const
)
  .map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(yesNo(value))}</td></tr>`)
  .join('\n')}
</tbody>
</table>
${
  cert
    ? `<h3>${escapeHtml(t.certificate)}</h3>
<dl>
<dt>${escapeHtml(t.subject)}</dt><dd>${escapeHtml(cert.subject)}</dd>
<dt>${escapeHtml(t.issuer)}</dt><dd>${escapeHtml(cert.issuer)}</dd>
<dt>${escapeHtml(t.serial)}</dt><dd><code>${escapeHtml(cert.serial)}</code></dd>
<dt>${escapeHtml(t.validity)}</dt><dd>${time(cert.not_before)} – ${time(cert.not_after)}</dd>
<dt>${escapeHtml(t.selfSigned)}</dt><dd>${escapeHtml(yesNo(cert.self_signed))}</dd>
<dt>${escapeHtml(t.ours)}</dt><dd>${escapeHtml(yesNo(cert.issued_by_this_service))}</dd>
</dl>`
    : ''
}
</section>`;
    })
    .join('\n');
  const body = `<main>
<h1>${escapeHtml(t.reportTitle)}</h1>
<div role="status"><p><strong>${escapeHtml(verdict)}</strong></p>${notes.join('')}</div>
${report.problems.length ? `<ul>${report.problems.map((p) => `<li>${escapeHtml(p)}</li>`).join('')}</ul>` : ''}
${signatures}
<dl>
<dt>${escapeHtml(t.validationTime)}</dt><dd>${time(report.validation_time)}</dd>
<dt>${escapeHtml(t.fileSha)}</dt><dd><code>${escapeHtml(report.file_sha256)}</code></dd>
</dl>
<p><a href="/verificar?lang=${locale}">${escapeHtml(t.again)}</a></p>
</main>`;
  return renderPage(locale, t.reportTitle, nonce, body);
}
