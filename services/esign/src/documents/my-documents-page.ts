import { escapeHtml } from '@firma-riesgo/service-kit';
import type { DocumentRow, DocumentStatus } from './repository';
import { DOCUMENT_STATUSES } from './repository';

const STATUS_LABEL: Record<DocumentStatus, string> = {
  draft: 'Borrador',
  pending: 'Pendiente',
  signed: 'Firmado',
  expired: 'Caducado',
  erased: 'Suprimido',
  declined: 'Rechazado',
};

function date(value: Date | null): string {
  return value ? `<time datetime="${escapeHtml(value.toISOString())}">${escapeHtml(value.toISOString().slice(0, 16).replace('T', ' '))} UTC</time>` : '—';
}

/** The tenant's documents as an accessible HTML table, 20 a page, with a status filter. */
export function renderMyDocuments(input: {
  tenant: string;
  rows: DocumentRow[];
  total: number;
  page: number;
  pageSize: number;
  status?: DocumentStatus;
}): string {
  const pages = Math.max(1, Math.ceil(input.total / input.pageSize));
  const link = (page: number) => `?${new URLSearchParams({ ...(input.status ? { status: input.status } : {}), page: String(page) }).toString()}`;
  const rows = input.rows
    .map((doc) => {
      const base = `/firma/documentos/${encodeURIComponent(doc.id)}`;
      const downloads: string[] = [];
      if (!doc.erasedAt && (doc.status === 'signed' || doc.status === 'pending' || doc.status === 'expired')) {
        downloads.push(`<a href="${base}/signed-pdf">PDF firmado</a>`);
      }
      if (!doc.erasedAt && doc.finalSha256) downloads.push(`<a href="${base}/final-pdf">PDF final</a>`);
      downloads.push(`<a href="${base}/solicitudes">Solicitudes</a>`);
      return `<tr>
  <td><code>${escapeHtml(doc.id)}</code></td>
  <td>${escapeHtml(doc.title ?? doc.filename)}</td>
  <td>${escapeHtml(STATUS_LABEL[doc.status])}</td>
  <td>${date(doc.createdAt)}</td>
  <td>${date(doc.finalisedAt)}</td>
  <td>${downloads.join(' · ')}</td>
</tr>`;
    })
    .join('\n');
  const options = [`<option value="all">Todos</option>`, ...DOCUMENT_STATUSES.map((s) => `<option value="${s}"${s === input.status ? ' selected' : ''}>${STATUS_LABEL[s]}</option>`)].join('');
  const nav: string[] = [];
  if (input.page > 1) nav.push(`<a href="${escapeHtml(link(input.page - 1))}" rel="prev">Anterior</a>`);
  nav.push(`<span>Página ${input.page} de ${pages}</span>`);
  if (input.page < pages) nav.push(`<a href="${escapeHtml(link(input.page + 1))}" rel="next">Siguiente</a>`);
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mis documentos — ${escapeHtml(input.tenant)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#1a1a1a;background:#fff}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #767676;padding:.4rem .6rem;text-align:left;vertical-align:top}
th{background:#f0f0f0}a{color:#0645ad}a:focus,select:focus,button:focus{outline:3px solid #1a73e8;outline-offset:2px}
nav{margin-top:1rem;display:flex;gap:1rem}
</style>
</head>
<body>
<main>
<h1>Mis documentos</h1>
<form method="get" action="">
  <label for="status">Estado</label>
  <select id="status" name="status">${options}</select>
  <button type="submit">Filtrar</button>
</form>
<p>${input.total} documento${input.total === 1 ? '' : 's'}.</p>
<table>
<caption>Documentos del inquilino ${escapeHtml(input.tenant)}</caption>
<thead><tr><th scope="col">ID</th><th scope="col">Título</th><th scope="col">Estado</th><th scope="col">Creado</th><th scope="col">Finalizado</th><th scope="col">Descargas</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="6">No hay documentos.</td></tr>'}
</tbody>
</table>
<nav aria-label="Paginación">${nav.join('\n')}</nav>
</main>
</body>
</html>`;
}
