import { escapeHtml, renderPage } from '../html/page-shell';

export interface DashboardData {
  stats: {
    tenants: number;
    documents: Record<string, number>;
    signatures: number;
    signatures_last: Record<string, number>;
    median_seconds_to_sign: number | null;
    otp_failure_rate: number | null;
    webhook_success_rate: number | null;
    storage_bytes: number;
    queues: Record<string, { waiting: number; delayed: number; active: number; failed: number }>;
  };
  /** The last 30 days, oldest first. */
  daily: { date: string; signatures: number; uploads: number }[];
  tenants: { tenant: string; documents: number; documents_pending: number; signatures: number; storage_bytes: number }[];
  pendingLongest: { document_id: string; tenant: string; created_at: string }[];
  /** Keys not revoked, with their revoke and rotate forms. */
  keys: { key_id: string; tenant: string; prefix: string; label: string | null; role: string; status: string; rotated: boolean; last_used_at: string | null; expires_at: string | null }[];
  failingWebhooks: { webhook_id: string; tenant: string; url: string; active: boolean; reason: string | null; failing_since: string | null }[];
  csrf: string;
}

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);
const bytes = (n: number) => (n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : `${Math.round(n / 1024)} kB`);

/** Daily signatures and uploads as an inline SVG drawn on the server: no script, no external asset. */
function chart(daily: DashboardData['daily']): string {
  const w = 600;
  const h = 160;
  const max = Math.max(1, ...daily.flatMap((d) => [d.signatures, d.uploads]));
  const bar = (w - 20) / Math.max(1, daily.length);
  const rects = daily
    .map((d, i) => {
      const x = 10 + i * bar;
      const hs = ((h - 30) * d.signatures) / max;
      const hu = ((h - 30) * d.uploads) / max;
      return `<rect x="${(x + 1).toFixed(1)}" y="${(h - 20 - hu).toFixed(1)}" width="${(bar / 2 - 1).toFixed(1)}" height="${hu.toFixed(1)}" fill="#1d4f91"><title>${escapeHtml(d.date)}: ${d.uploads} uploads</title></rect><rect x="${(x + bar / 2).toFixed(1)}" y="${(h - 20 - hs).toFixed(1)}" width="${(bar / 2 - 1).toFixed(1)}" height="${hs.toFixed(1)}" fill="#1a7f37"><title>${escapeHtml(d.date)}: ${d.signatures} signatures</title></rect>`;
    })
    .join('');
  const total = (k: 'signatures' | 'uploads') => daily.reduce((a, d) => a + d[k], 0);
  return `<figure><svg viewBox="0 0 ${w} ${h}" width="100%" role="img" aria-labelledby="chart-t chart-d"><title id="chart-t">Uploads (blue) and signatures (green) per day, last 30 days</title><desc id="chart-d">${total('uploads')} uploads and ${total('signatures')} signatures in 30 days</desc>${rects}</svg><figcaption>Uploads (blue) and signatures (green) per day, last 30 days: ${total('uploads')} uploads, ${total('signatures')} signatures.</figcaption></figure>`;
}

function table(caption: string, head: string[], rows: string[][]): string {
  if (rows.length === 0) return `<h2>${escapeHtml(caption)}</h2><p>None.</p>`;
  return `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${head.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table>`;
}
const td = (text: string | number) => `<td>${escapeHtml(String(text))}</td>`;

/** Each key with its two forms, both carrying the session's CSRF token. */
function keysTable(data: DashboardData): string {
  const csrf = `<input type="hidden" name="csrf" value="${escapeHtml(data.csrf)}">`;
  const actions = (k: DashboardData['keys'][number]) => {
    const path = `/admin/dashboard/keys/${encodeURIComponent(k.key_id)}`;
    const id = `overlap-${escapeHtml(k.key_id)}`;
    const rotate =
      k.status === 'active' && !k.rotated
        ? `<form method="post" action="${path}/rotate">${csrf}<label for="${id}">Overlap (hours)</label> <input type="number" id="${id}" name="overlap_hours" value="24" min="0" max="720" size="4"> <button type="submit" class="secondary">Rotate ${escapeHtml(k.prefix)}</button></form>`
        : '';
    return `<td>${rotate}<form method="post" action="${path}/revoke">${csrf}<button type="submit" class="secondary">Revoke ${escapeHtml(k.prefix)}</button></form></td>`;
  };
  const state = (k: DashboardData['keys'][number]) => (k.rotated && k.status === 'active' ? 'active (rotated; overlap running)' : k.status);
  return table(
    'API keys',
    ['Tenant', 'Key', 'Label', 'Role', 'State', 'Last used', 'Expires', 'Actions'],
    data.keys.map((k) => [td(k.tenant), `<td><code>${escapeHtml(k.prefix)}…</code></td>`, td(k.label ?? '—'), td(k.role), td(state(k)), td(k.last_used_at ?? '—'), td(k.expires_at ?? 'never'), actions(k)]),
  );
}

/** After a rotation from the dashboard: the new key, shown this once. */
export function renderRotatedKey(nonce: string, rotated: { key: string; prefix: string; tenant: string; replacedPrefix: string; replacedExpiresAt: string }): string {
  const body = `<main><h1>Key rotated</h1>
<p>New key for tenant <strong>${escapeHtml(rotated.tenant)}</strong>. It is shown this once: copy it now.</p>
<p><code id="new-key">${escapeHtml(rotated.key)}</code></p>
<p>The old key <code>${escapeHtml(rotated.replacedPrefix)}…</code> keeps working until ${escapeHtml(rotated.replacedExpiresAt)}.</p>
<p><a href="/admin/">Back to the dashboard</a></p></main>`;
  return renderPage('en', 'Key rotated: esign administration', nonce, body);
}

/** A dashboard action that could not be done (the key is gone, or it is the last one). */
export function renderActionError(nonce: string, message: string): string {
  const body = `<main><h1>Not done</h1><div class="alert" role="alert">${escapeHtml(message)}</div><p><a href="/admin/">Back to the dashboard</a></p></main>`;
  return renderPage('en', 'Not done: esign administration', nonce, body);
}

export function renderDashboard(data: DashboardData, nonce: string): string {
  const s = data.stats;
  const figures: [string, string][] = [
    ['Tenants', String(s.tenants)],
    ['Documents', String(s.documents.all ?? 0)],
    ['Pending', String(s.documents.pending ?? 0)],
    ['Signatures', String(s.signatures)],
    ['Signatures, last 24 h', String(s.signatures_last['24h'] ?? 0)],
    ['Median time to sign', s.median_seconds_to_sign === null ? '—' : `${Math.round(s.median_seconds_to_sign / 60)} min`],
    ['OTP failure rate', pct(s.otp_failure_rate)],
    ['Webhook success rate', pct(s.webhook_success_rate)],
    ['Storage', bytes(s.storage_bytes)],
  ];
  const body = `
<header><h1>esign administration</h1>
<form method="post" action="/admin/logout"><input type="hidden" name="csrf" value="${escapeHtml(data.csrf)}"><button type="submit" class="secondary">Sign out</button></form></header>
<main>
<h2>Figures</h2>
<dl class="figures">${figures.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>
${chart(data.daily)}
${table('Tenants', ['Tenant', 'Documents', 'Pending', 'Signatures', 'Storage', 'Links'], data.tenants.map((t) => [td(t.tenant), td(t.documents), td(t.documents_pending), td(t.signatures), td(bytes(t.storage_bytes)), `<td><a href="/admin/metering/${encodeURIComponent(t.tenant)}">metering</a> · <a href="/admin/documents?tenant=${encodeURIComponent(t.tenant)}">documents</a></td>`]))}
${table('Documents pending longest', ['Document', 'Tenant', 'Uploaded'], data.pendingLongest.map((d) => [`<td><a href="/admin/documents/${encodeURIComponent(d.document_id)}/audit">${escapeHtml(d.document_id)}</a></td>`, td(d.tenant), td(d.created_at)]))}
${table('Queues', ['Queue', 'Waiting', 'Delayed', 'Running', 'Failed'], Object.entries(s.queues).map(([name, q]) => [td(name), td(q.waiting), td(q.delayed), td(q.active), td(q.failed)]))}
${keysTable(data)}
${table('Failing webhooks', ['Tenant', 'URL', 'State', 'Failing since'], data.failingWebhooks.map((w) => [td(w.tenant), td(w.url), td(w.active ? 'active' : `disabled: ${w.reason ?? ''}`), td(w.failing_since ?? '—')]))}
</main>`;
  return renderPage('en', 'esign administration', nonce, body);
}

export function renderLogin(nonce: string, error?: string): string {
  const body = `<main><h1>esign administration</h1>
${error ? `<div class="alert" role="alert">${escapeHtml(error)}</div>` : ''}
<form method="post" action="/admin/login">
<label for="key">Superadmin key</label>
<input type="password" id="key" name="key" autocomplete="off" required>
<button type="submit">Sign in</button>
</form>
<p class="hint">The key is exchanged for a 30-minute session cookie; it is never kept in the browser.</p></main>`;
  return renderPage('en', 'Sign in: esign administration', nonce, body);
}
