import type { DocumentStatus } from '../documents/repository';
import { escapeHtml, formatDate, renderMessagePage, renderPage, type Locale } from '../html/page-shell';
import type { TVerification } from './schemas';

type RequestStatus = TVerification['signatures'][number]['status'];

const TEXT = {
  es: {
    title: 'Verificación del documento',
    id: 'Identificador del documento',
    status: 'Estado',
    sha256: 'SHA-256 del original',
    finalSha256: 'SHA-256 del PDF final',
    notFinal: 'Aún no generado',
    finalSeal: 'Sello final',
    seal: (level: string, tsa: string | null) => `PAdES ${level}${tsa ? `, sello de tiempo ${tsa}` : ''}`,
    signatures: 'Firmas',
    caption: 'Firmas solicitadas para este documento',
    signee: 'Firmante (correo enmascarado)',
    signedAt: 'Firmado',
    level: 'Nivel',
    tsa: 'Sello de tiempo (TSA)',
    none: 'No hay solicitudes de firma.',
    howTo: 'Para comprobar una copia, calcule su SHA-256 y compárelo con los de esta página.',
    documentStatus: { draft: 'Borrador', pending: 'Pendiente de firma', signed: 'Firmado', expired: 'Caducado', erased: 'Suprimido', declined: 'Rechazado' } satisfies Record<DocumentStatus, string>,
    requestStatus: { waiting: 'En espera de su turno', pending: 'Pendiente', signed: 'Firmada', approved: 'Aprobada', declined: 'Rechazada', expired: 'Caducada', cancelled: 'Cancelada' } satisfies Record<RequestStatus, string>,
    erasedTitle: 'Documento suprimido',
    erasedBody: 'El remitente suprimió este documento y sus copias. Solo se conservan sus huellas SHA-256.',
    erasedAt: 'Suprimido',
    notFoundTitle: 'Documento no encontrado',
    notFoundBody: 'No existe ningún documento con este identificador. Compruebe que ha copiado entero el enlace del certificado.',
  },
  en: {
    title: 'Document verification',
    id: 'Document identifier',
    status: 'Status',
    sha256: 'SHA-256 of the original',
    finalSha256: 'SHA-256 of the final PDF',
    notFinal: 'Not built yet',
    finalSeal: 'Final seal',
    seal: (level: string, tsa: string | null) => `PAdES ${level}${tsa ? `, timestamp ${tsa}` : ''}`,
    signatures: 'Signatures',
    caption: 'Signatures requested for this document',
    signee: 'Signee (masked email)',
    signedAt: 'Signed',
    level: 'Level',
    tsa: 'Timestamp (TSA)',
    none: 'There are no signing requests.',
    howTo: 'To check a copy, compute its SHA-256 and compare it with the ones on this page.',
    documentStatus: { draft: 'Draft', pending: 'Awaiting signatures', signed: 'Signed', expired: 'Expired', erased: 'Deleted', declined: 'Declined' } satisfies Record<DocumentStatus, string>,
    requestStatus: { waiting: 'Waiting for its turn', pending: 'Pending', signed: 'Signed', approved: 'Approved', declined: 'Declined', expired: 'Expired', cancelled: 'Cancelled' } satisfies Record<RequestStatus, string>,
    erasedTitle: 'Document deleted',
    erasedBody: 'The sender deleted this document and its copies. Only its SHA-256 fingerprints are kept.',
    erasedAt: 'Deleted',
    notFoundTitle: 'Document not found',
    notFoundBody: 'There is no document with this identifier. Check that you copied the whole link from the certificate.',
  },
} as const;

function time(value: string | Date | null, locale: Locale): string {
  if (!value) return '—';
  const date = typeof value === 'string' ? new Date(value) : value;
  return `<time datetime="${escapeHtml(date.toISOString())}">${escapeHtml(formatDate(date, locale))}</time>`;
}

function hashes(t: (typeof TEXT)[Locale], sha256: string, finalSha256: string | null): string {
  return `<dt>${escapeHtml(t.sha256)}</dt><dd><code>${escapeHtml(sha256)}</code></dd>
<dt>${escapeHtml(t.finalSha256)}</dt><dd>${finalSha256 ? `<code>${escapeHtml(finalSha256)}</code>` : escapeHtml(t.notFinal)}</dd>`;
}

/** The public verification page: statuses, times, hashes, levels and masked addresses only. */
export function renderVerificationPage(record: TVerification, locale: Locale, nonce: string): string {
  const t = TEXT[locale];
  const rows = record.signatures
    .map(
      (s) => `<tr>
  <td>${escapeHtml(s.signee_email_masked)}</td>
  <td>${escapeHtml(t.requestStatus[s.status])}</td>
  <td>${time(s.signed_at, locale)}</td>
  <td>${s.level ? `PAdES ${escapeHtml(s.level)}` : '—'}</td>
  <td>${time(s.tsa_time, locale)}</td>
</tr>`,
    )
    .join('\n');
  const final = record.final_signature
    ? `<dt>${escapeHtml(t.finalSeal)}</dt><dd>${escapeHtml(t.seal(record.final_signature.level, record.final_signature.tsa_time ? formatDate(new Date(record.final_signature.tsa_time), locale) : null))}</dd>`
    : '';
  const body = `<main>
<h1>${escapeHtml(t.title)}</h1>
<dl>
<dt>${escapeHtml(t.id)}</dt><dd><code>${escapeHtml(record.document_id)}</code></dd>
<dt>${escapeHtml(t.status)}</dt><dd>${escapeHtml(t.documentStatus[record.status])}</dd>
${hashes(t, record.sha256, record.final_sha256)}
${final}
</dl>
<h2>${escapeHtml(t.signatures)}</h2>
${
  rows
    ? `<table>
<caption>${escapeHtml(t.caption)}</caption>
<thead><tr><th scope="col">${escapeHtml(t.signee)}</th><th scope="col">${escapeHtml(t.status)}</th><th scope="col">${escapeHtml(t.signedAt)}</th><th scope="col">${escapeHtml(t.level)}</th><th scope="col">${escapeHtml(t.tsa)}</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
    : `<p>${escapeHtml(t.none)}</p>`
}
<p class="hint">${escapeHtml(t.howTo)}</p>
</main>`;
  return renderPage(locale, t.title, nonce, body);
}

export function renderErasedVerificationPage(input: { documentId: string; sha256: string; finalSha256: string | null; erasedAt: Date }, locale: Locale, nonce: string): string {
  const t = TEXT[locale];
  const body = `<main>
<h1>${escapeHtml(t.erasedTitle)}</h1>
<p>${escapeHtml(t.erasedBody)}</p>
<dl>
<dt>${escapeHtml(t.id)}</dt><dd><code>${escapeHtml(input.documentId)}</code></dd>
<dt>${escapeHtml(t.erasedAt)}</dt><dd>${time(input.erasedAt, locale)}</dd>
${hashes(t, input.sha256, input.finalSha256)}
</dl>
</main>`;
  return renderPage(locale, t.erasedTitle, nonce, body);
}

export function renderVerificationNotFound(locale: Locale, nonce: string): string {
  const t = TEXT[locale];
  return renderMessagePage(locale, nonce, t.notFoundTitle, t.notFoundBody);
}
