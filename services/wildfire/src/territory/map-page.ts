import { escapeHtml } from '@firma-riesgo/service-kit';
import { PROVINCES } from '../municipalities/provinces';
import { EARLIEST_DATE } from '../readings/date-range';

/**
 * The public map page, `/mapa`: a form asks for a token (kept in sessionStorage, never in
 * a URL: the field has no name, so even a form submitted without the script sends it
 * nowhere), a day and a province, and shows the territory map the API answers. Spanish.
 */

export const MAP_PAGE_STYLE = `
:root{color-scheme:light}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1a1a1a;background:#fff;line-height:1.5}
header,main{max-width:60rem;margin:0 auto;padding:1rem 1.25rem}
h1{font-size:1.6rem;margin:.25rem 0}
form{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.75rem 1rem;align-items:end}
label{display:block;font-weight:600;margin-bottom:.25rem}
input,select{font:inherit;width:100%;box-sizing:border-box;min-height:44px;padding:.35rem .5rem;border:2px solid #555;border-radius:4px;background:#fff;color:#1a1a1a}
.actions{display:flex;flex-wrap:wrap;gap:.75rem}
button{font:inherit;padding:.6rem 1.1rem;border-radius:4px;border:2px solid #0b5394;background:#0b5394;color:#fff;cursor:pointer;min-height:44px}
button.secondary{background:#fff;color:#0b5394}
:focus-visible{outline:3px solid #e37400;outline-offset:2px}
.hint{color:#444;margin:.25rem 0 0;font-size:.9rem}
.alert{border:2px solid #b00020;background:#fdecea;padding:.75rem 1rem;border-radius:4px}
#map svg{display:block;width:100%;height:auto;margin-top:1rem;border:1px solid #767676}
a{color:#0645ad}
`;

/** The page's script: reads and keeps the token in sessionStorage, asks the API for the SVG, shows it or the API's error message. */
export const MAP_PAGE_SCRIPT = `(() => {
  const KEY = 'wildfire-token';
  const $ = (id) => document.getElementById(id);
  const form = $('map-form'), token = $('token'), date = $('date'), province = $('province');
  const status = $('status'), error = $('error'), map = $('map');
  token.value = sessionStorage.getItem(KEY) || '';
  const fail = (text) => { error.textContent = text; error.hidden = false; status.textContent = ''; };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    const secret = token.value.trim();
    if (!secret) { fail('Escriba su token de acceso.'); token.focus(); return; }
    sessionStorage.setItem(KEY, secret);
    status.textContent = 'Cargando el mapa…';
    const query = new URLSearchParams({ province: province.value });
    if (date.value) query.set('date', date.value);
    let res;
    try {
      res = await fetch('/api/v3/m1/territorio?' + query, { headers: { Authorization: 'Bearer ' + secret, Accept: 'image/svg+xml' } });
    } catch (err) { fail('No se pudo contactar con el servicio.'); return; }
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      fail((body && body.error && body.error.message) || ('Error ' + res.status));
      return;
    }
    const svg = new DOMParser().parseFromString(await res.text(), 'image/svg+xml').documentElement;
    if (svg.localName !== 'svg') { fail('El servicio no devolvió un mapa.'); return; }
    map.replaceChildren(document.importNode(svg, true));
    status.textContent = 'Mapa cargado: ' + (svg.querySelector('title') ? svg.querySelector('title').textContent : '');
  });
  $('forget').addEventListener('click', () => { sessionStorage.removeItem(KEY); token.value = ''; status.textContent = 'Token olvidado.'; });
})();`;

/** The page body; `today` (Spanish calendar) bounds the date picker and is its default. */
export function mapPageBody(today: string): string {
  const options = [...PROVINCES]
    .sort((a, b) => a.name.localeCompare(b.name, 'es'))
    .map((p) => `<option value="${p.code}"${p.code === '41' ? ' selected' : ''}>${escapeHtml(p.name)}</option>`)
    .join('');
  return `<header><h1>Mapa de peligro de incendio forestal</h1>
<p>Cada punto es un municipio, del color de su clase de peligro (índice FWI, clases EFFIS). Necesita un token con el permiso <code>risk:read</code>.</p></header>
<main>
<form id="map-form" novalidate>
<div><label for="token">Token de acceso</label><input id="token" type="password" autocomplete="off" spellcheck="false" aria-describedby="token-hint">
<p class="hint" id="token-hint">Se guarda solo en esta pestaña (sessionStorage) y nunca en la dirección.</p></div>
<div><label for="date">Fecha</label><input id="date" type="date" min="${EARLIEST_DATE}" max="${today}" value="${today}"></div>
<div><label for="province">Provincia</label><select id="province">${options}</select></div>
<div class="actions"><button type="submit">Ver mapa</button><button type="button" id="forget" class="secondary">Olvidar el token</button></div>
</form>
<p id="status" role="status" aria-live="polite"></p>
<div id="error" class="alert" role="alert" hidden></div>
<div id="map"></div>
</main>`;
}

/** The whole page, its style and script under the response's CSP nonce. */
export function renderMapPage(today: string, nonce: string): string {
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mapa de peligro de incendio forestal</title>
<style nonce="${nonce}">${MAP_PAGE_STYLE}</style>
</head>
<body>
${mapPageBody(today)}
<script nonce="${nonce}">${MAP_PAGE_SCRIPT}</script>
</body>
</html>`;
}
