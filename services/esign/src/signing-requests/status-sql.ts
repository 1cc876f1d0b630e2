import { sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import { signingRequests as r } from './tables';

/**
 * Facts about a document's requests as SQL over signing_requests, for the documents
 * feature to derive the document's status in its own queries (documents/rules.ts states
 * the rule). The expiry test uses `now` from the caller's clock, the same instant the TS
 * rule (rules.ts `effectiveStatus`) is given, never the database's `now()`.
 */
export function requestFactsSql(documentId: AnyColumn, now: Date | Placeholder): { hasRequests: SQL<boolean>; hasPending: SQL<boolean>; allSigned: SQL<boolean> } {
  // A placeholder (a query prepared once) is given `now` as an ISO string when it runs.
  const at = now instanceof Date ? now.toISOString() : now;
  return {
    hasRequests: sql<boolean>`exists (select 1 from ${r} where ${r.documentId} = ${documentId} and ${r.status} <> 'cancelled')`,
    hasPending: sql<boolean>`exists (select 1 from ${r} where ${r.documentId} = ${documentId} and ${r.status} = 'pending' and ${r.expiresAt} > ${at}::timestamptz)`,
    allSigned: sql<boolean>`not exists (select 1 from ${r} where ${r.documentId} = ${documentId} and ${r.status} not in ('signed', 'cancelled'))`,
  };
}
