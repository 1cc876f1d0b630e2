import type { RequestHandler } from 'express';
import type { DeprecatedPrefix } from '../config';

/** The most specific deprecated prefix `path` falls under (`/api/v1` covers `/api/v1` and `/api/v1/...`). */
export function deprecationOf(prefixes: readonly DeprecatedPrefix[], path: string): DeprecatedPrefix | null {
  let match: DeprecatedPrefix | null = null;
  for (const p of prefixes) {
    if ((path === p.prefix || path.startsWith(`${p.prefix}/`)) && (!match || p.prefix.length > match.prefix.length)) match = p;
  }
  return match;
}

/** Interface §9.4: a deprecated version's responses carry `Deprecation: true` starting 90 days before retirement. */
export const DEPRECATION_NOTICE_DAYS = 90;

/** Whether the headers of a deprecated version are due at `now`: from 90 days before its sunset on, including after it. */
export function deprecationNoticeDue(deprecated: DeprecatedPrefix, now: Date): boolean {
  return now.getTime() >= deprecated.sunset.getTime() - DEPRECATION_NOTICE_DAYS * 86_400_000;
}

/**
 * Marks every response under a deprecated prefix (WILDFIRE_DEPRECATED_PREFIXES),
 * errors and 404s included, so a client learns of the sunset from any call:
 * `Deprecation: true`, `Sunset: <HTTP date>` (RFC 8594) and, when a successor is
 * configured, `Link: <successor>; rel="successor-version"`. As the interface states
 * (§9.4), the headers start 90 days before the sunset; earlier, only the OpenAPI
 * document announces it. Mounted before the routers.
 */
export function deprecationHeaders(prefixes: readonly DeprecatedPrefix[], clock: () => Date = () => new Date()): RequestHandler {
  return (req, res, next) => {
    const deprecated = deprecationOf(prefixes, req.path);
    if (deprecated && deprecationNoticeDue(deprecated, clock())) {
      res.setHeader('Deprecation', 'true');
      res.setHeader('Sunset', deprecated.sunset.toUTCString());
      if (deprecated.successor) res.append('Link', `<${deprecated.successor}>; rel="successor-version"`);
    }
    next();
  };
}

type OpenApiPaths = Record<string, Record<string, { deprecated?: boolean; description?: string } | unknown>>;

/** The OpenAPI document with the operations under a deprecated prefix marked `deprecated`, their sunset in the description. */
export function markDeprecatedOperations<T extends { paths?: OpenApiPaths }>(doc: T, prefixes: readonly DeprecatedPrefix[]): T {
  if (prefixes.length === 0 || !doc.paths) return doc;
  const paths: OpenApiPaths = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const deprecated = deprecationOf(prefixes, path.replace(/\{[^}]+\}/g, 'x'));
    if (!deprecated) {
      paths[path] = item;
      continue;
    }
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const noticeFrom = new Date(deprecated.sunset.getTime() - DEPRECATION_NOTICE_DAYS * 86_400_000);
    const note =
      `Deprecated: sunset on ${day(deprecated.sunset)}${deprecated.successor ? `; use ${deprecated.successor}` : ''}. ` +
      `Responses carry \`Deprecation: true\` and \`Sunset\` from ${day(noticeFrom)}.`;
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, op]) => [
        method,
        op && typeof op === 'object' && 'responses' in op ? { ...op, deprecated: true, description: [note, (op as { description?: string }).description].filter(Boolean).join('\n\n') } : op,
      ]),
    );
  }
  return { ...doc, paths };
}
