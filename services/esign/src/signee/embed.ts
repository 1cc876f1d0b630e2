import { escapeHtml } from '../html/page-shell';
import { normaliseEmbedOrigin } from '../tenant-settings/embed-origins';
import type { SigningContext } from './open-signing-page';

/**
 * Signing inside the tenant's own application: who may frame the signing pages (the
 * tenant's `embed_origins`, tenant-settings/embed-origins.ts) and the events the page posts
 * to the framing page. The signee flow uses no cookies, so framing needs no cookie changes.
 */

/** The `frame-ancestors` of a signing page, and whether `X-Frame-Options: DENY` stays. */
export function framePolicy(origins: readonly string[]): { frameAncestors: string; denyXfo: boolean } {
  // Stored origins were validated as CSP host-sources; anything else is left out all the same.
  const listed = origins.filter((o) => normaliseEmbedOrigin(o).ok);
  if (listed.length === 0) return { frameAncestors: "'none'", denyXfo: true };
  return { frameAncestors: listed.join(' '), denyXfo: false };
}

/**
 * The origin the page posts its events to: the embedding page's `?origen=`, normalised,
 * when the tenant lists it; otherwise null and the page posts nothing.
 */
export function eventOrigin(requested: string | undefined, allowed: readonly string[]): string | null {
  if (!requested) return null;
  const checked = normaliseEmbedOrigin(requested);
  return checked.ok && allowed.includes(checked.origin) ? checked.origin : null;
}

/** A syntactically valid `?origen=` carried through the form posts (the page checks it against the list). */
export function carriedOrigin(requested: string | undefined): string | undefined {
  if (!requested) return undefined;
  const checked = normaliseEmbedOrigin(requested);
  return checked.ok ? checked.origin : undefined;
}

export type EmbedEvent = { type: string; request_id: string } & Record<string, unknown>;

/** The errors a closed link's page stands for, as the API names them. */
const CLOSED: Partial<Record<SigningContext['status'], string>> = { expired: 'REQUEST_EXPIRED', cancelled: 'REQUEST_CANCELLED' };

/**
 * What the page tells its host on load, from the state it shows: always `firma:loaded`,
 * then `firma:signed` (signed or approved, with the signature's state), `firma:declined`,
 * or `firma:error` (a closed link, or the error a form post came back with). `firma:viewed`
 * is posted by the script when the first page image has loaded (the view is recorded).
 */
export function embedEvents(ctx: SigningContext, error: string | undefined): EmbedEvent[] {
  const { request, document, status } = ctx;
  const id = request.id;
  const events: EmbedEvent[] = [{ type: 'firma:loaded', request_id: id, status: request.lockedAt && status === 'pending' ? 'locked' : status }];
  if ((status === 'signed' || status === 'approved') && document.erasedAt) events.push({ type: 'firma:error', request_id: id, code: 'DOCUMENT_ERASED' });
  else if (status === 'signed' || status === 'approved')
    events.push({
      type: 'firma:signed',
      request_id: id,
      status,
      signed_at: request.signedAt?.toISOString() ?? null,
      signature: request.sealStatus ? { status: request.sealStatus, level: request.signatureLevel } : null,
    });
  else if (status === 'declined') events.push({ type: 'firma:declined', request_id: id, declined_at: request.declinedAt?.toISOString() ?? null });
  else if (CLOSED[status]) events.push({ type: 'firma:error', request_id: id, code: CLOSED[status] });
  else if (status === 'pending' && request.lockedAt) events.push({ type: 'firma:error', request_id: id, code: 'REQUEST_LOCKED' });
  else if (status === 'pending' && error && /^[A-Za-z_]{1,40}$/.test(error)) events.push({ type: 'firma:error', request_id: id, code: error });
  return events;
}

/**
 * Posts the events to the parent frame, to the one origin given (the browser delivers
 * nothing if the parent is another), and `firma:viewed` once the first page image has
 * loaded. Plain ES5, inline under the response's CSP nonce, as the signature pad is; it
 * reads its data from a hidden element, so no data is ever written into script text.
 */
export const EMBED_SCRIPT = `(function(){
var el=document.getElementById('firma-embed');if(!el||window.parent===window)return;
var origin=el.getAttribute('data-origin'),events;try{events=JSON.parse(el.getAttribute('data-events'));}catch(e){return;}
function post(m){window.parent.postMessage(m,origin);}
for(var i=0;i<events.length;i++)post(events[i]);
var img=document.querySelector('ol.pages img');if(!img)return;var sent=false;
function viewed(){if(sent||!img.naturalWidth)return;sent=true;post({type:'firma:viewed',request_id:events[0].request_id});}
if(img.complete)viewed();else img.addEventListener('load',viewed);
})();`;

/** The page with its embed data and script before `</body>` (the page shell's one closing tag). */
export function withEmbedScript(html: string, nonce: string, origin: string, events: EmbedEvent[]): string {
  const at = html.lastIndexOf('</body>');
  if (at < 0) return html;
  const data = `<div id="firma-embed" hidden data-origin="${escapeHtml(origin)}" data-events="${escapeHtml(JSON.stringify(events))}"></div>\n<script nonce="${escapeHtml(nonce)}">${EMBED_SCRIPT}</script>\n`;
  return html.slice(0, at) + data + html.slice(at);
}
