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

/**
 * Marks every response under a deprecated prefix (WILDFIRE_DEPRECATED_PREFIXES),
 * errors and 404s included, so a client learns of the sunset from any call:
 * `Deprecation: true`, `Sunset: <HTTP date>` (RFC 8594) and, when a successor is
 * configured, `Link: <successor>; rel="successor-version"`. Mounted before the routers.
 */
export function deprecationHeaders(prefixes: readonly DeprecatedPrefix[]): RequestHandler {
  return (req, res, next) => {
    const deprecated = deprecationOf(prefixes, req.path);
    if (deprecated) {
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
    const note = `Deprecated: sunset on ${deprecated.sunset.toISOString().slice(0, 10)}${deprecated.successor ? `; use ${deprecated.successor}` : ''}.`;
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, op]) => [
        method,
        op && typeof op === 'object' && 'responses' in op ? { ...op, deprecated: true, description: [note, (op as { description?: string }).description].filter(Boolean).join('\n\n') } : op,
      ]),
    );
  }
  return { ...doc, paths };
}
