import type { DangerClass } from '../decision-support/danger-classes';
import type { WildfirePrincipal } from '../tokens/authenticate';
import { renderCapAtomFeed } from './cap-feed';
import type { CapAlertInput, CapLanguage } from './cap-types';
import type { AlertsRepository, RaisedAlertRow, VisibleAlerts } from './repository';
import type { TokenAccess } from './token-access';

/** Alerts one feed carries at most: the newest. */
export const CAP_FEED_MAX_ALERTS = 200;
export const CAP_FEED_DEFAULT_ALERTS = 50;

/** What `alertPayload` stored, as the feed reads it back. */
interface StoredPayload {
  municipality: string;
  province: string;
  lat: number | null;
  lon: number | null;
  reading: { fwi: number; risk_score?: number; lead_days?: number };
  measures_in_force: { measures: string[] } | null;
  links: { m3: string };
}

/** A raised alert as the CAP renderer takes it; `origin` makes the m3 link absolute when the payload's is a path. */
export function capInputOf(row: RaisedAlertRow, origin: string, languages: readonly CapLanguage[]): CapAlertInput {
  const p = row.payload as unknown as StoredPayload;
  return {
    alert_id: row.id,
    sent_at: row.raisedAt,
    municipality: { ine: row.municipioId, name: p.municipality, province: p.province, lat: p.lat, lon: p.lon },
    date: row.date,
    observed: row.kind === 'observed',
    ...(p.reading.lead_days !== undefined ? { lead_days: p.reading.lead_days } : {}),
    danger_class: row.dangerClass as DangerClass,
    fwi: p.reading.fwi,
    ...(p.reading.risk_score !== undefined ? { risk_score: p.reading.risk_score } : {}),
    measures: p.measures_in_force?.measures ?? [],
    m3_url: p.links.m3.startsWith('/') ? `${origin}${p.links.m3}` : p.links.m3,
    languages,
  };
}

/** The feed's origin and CAP `sender`: WILDFIRE_PUBLIC_URL, else the request's; a Host that makes no URL (or no CAP token) falls back to `wildfire`. */
export function feedOrigin(publicUrl: string | undefined, requestOrigin: string): { origin: string; sender: string } {
  const candidate = publicUrl ?? requestOrigin;
  try {
    const url = new URL(candidate);
    const sender = /^[A-Za-z0-9.:[\]-]+$/.test(url.host) ? url.host : 'wildfire';
    return { origin: url.origin, sender };
  } catch {
    return { origin: 'http://wildfire.invalid', sender: 'wildfire' };
  }
}

/**
 * What the feed may show of each of the account's subscriptions: none of one whose token may
 * read nothing now (revoked, expired, without `risk:read`), and of the others the
 * municipalities both its token and the reading token may read now.
 */
async function visibleAlerts(
  deps: { repo: Pick<AlertsRepository, 'list'>; tokenAccess: TokenAccess },
  caller: Pick<WildfirePrincipal, 'accountId' | 'municipios'>,
): Promise<VisibleAlerts[]> {
  const subs = await deps.repo.list(caller.accountId);
  const access = await deps.tokenAccess(subs.flatMap((s) => (s.tokenId ? [s.tokenId] : [])));
  const visible: VisibleAlerts[] = [];
  for (const sub of subs) {
    const allowed = sub.tokenId === null ? undefined : access.get(sub.tokenId);
    if (!allowed) continue;
    const lists = [allowed.municipios, caller.municipios].filter((l): l is string[] => l !== null);
    const municipios = lists.length === 0 ? null : lists.reduce((a, b) => a.filter((c) => b.includes(c)));
    if (municipios === null || municipios.length > 0) visible.push({ subscriptionId: sub.id, municipios });
  }
  return visible;
}

/** GET /api/v1/alerts/cap: the account's raised alerts, newest first, as an Atom feed of CAP 1.2 messages. */
export function createAlertFeed(deps: { repo: Pick<AlertsRepository, 'raised' | 'list'>; tokenAccess: TokenAccess; clock: () => Date }) {
  return async function capFeed(caller: Pick<WildfirePrincipal, 'accountId' | 'account' | 'municipios'>, options: { origin: string; sender: string; lang: 'es' | 'en'; limit: number }): Promise<string> {
    const rows = await deps.repo.raised(caller.accountId, Math.min(options.limit, CAP_FEED_MAX_ALERTS), await visibleAlerts(deps, caller));
    const languages: CapLanguage[] = options.lang === 'en' ? ['es', 'en'] : ['es'];
    return renderCapAtomFeed({
      feed_id: `urn:uuid:${caller.accountId}`,
      title: `Alertas de peligro de incendio forestal: ${caller.account}`,
      updated: rows[0]?.raisedAt ?? deps.clock(),
      self_url: `${options.origin}/api/v1/alerts/cap${options.lang === 'en' ? '?lang=en' : ''}`,
      sender: options.sender,
      alerts: rows.map((r) => capInputOf(r, options.origin, languages)),
    });
  };
}
