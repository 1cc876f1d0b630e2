import { sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import { COPY_ROLE, DECLINED, DONE_STATUSES, EXPIRY, WAITING, type RequestStatus } from './rules';
import { signingRequests as r } from './tables';

/**
 * The request rules of rules.ts as SQL over signing_requests, built from the same
 * constants (`EXPIRY`). Every test against time uses `now` from the caller's clock, the
 * same instant the TS rule (`effectiveStatus`) is given, never the database's `now()`.
 * `expiry-sql-agreement.test.ts` checks each form against `effectiveStatus` where it is used.
 */

/** A placeholder (a query prepared once) is given `now` as an ISO string when it runs. */
const instant = (now: Date | Placeholder) => (now instanceof Date ? now.toISOString() : now);
/** A status constant as an SQL literal: the query text stays the same for every call. */
const status = (value: RequestStatus) => sql.raw(`'${value}'`);
const statusList = (values: readonly RequestStatus[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** The request's expiry has come while it is still `EXPIRY.from`: the lazy update marks it `EXPIRY.to`. */
export function expiryDueSql(now: Date | Placeholder): SQL<boolean> {
  return sql<boolean>`(${r.status} = ${status(EXPIRY.from)} and ${r.expiresAt} <= ${instant(now)}::timestamptz)`;
}

/** The request is `EXPIRY.from` and its expiry has not come: it can still be signed (the complement of `expiryDueSql` among those). */
export function stillPendingSql(now: Date | Placeholder): SQL<boolean> {
  return sql<boolean>`(${r.status} = ${status(EXPIRY.from)} and ${r.expiresAt} > ${instant(now)}::timestamptz)`;
}

/** rules.ts `effectiveStatus` of each row: a due request reads as `EXPIRY.to` before the update has run. */
export function effectiveStatusSql(now: Date | Placeholder): SQL<RequestStatus> {
  return sql<RequestStatus>`case when ${expiryDueSql(now)} then ${status(EXPIRY.to)} else ${r.status} end`;
}

/**
 * Facts about a document's requests, for the documents feature to derive the document's
 * status in its own queries (documents/rules.ts `DOCUMENT_STATUS_RULE` states the rule).
 */
export function requestFactsSql(documentId: AnyColumn, now: Date | Placeholder): { declined: SQL<boolean>; noRequests: SQL<boolean>; hasPending: SQL<boolean>; allSigned: SQL<boolean> } {
  const takesPart = sql`${r.documentId} = ${documentId} and ${r.role} <> ${sql.raw(`'${COPY_ROLE}'`)}`;
  return {
    declined: sql<boolean>`exists (select 1 from ${r} where ${r.documentId} = ${documentId} and ${r.status} = ${status(DECLINED)})`,
    noRequests: sql<boolean>`not exists (select 1 from ${r} where ${takesPart} and ${r.status} <> 'cancelled')`,
    hasPending: sql<boolean>`exists (select 1 from ${r} where ${takesPart} and (${stillPendingSql(now)} or ${r.status} = ${status(WAITING)}))`,
    allSigned: sql<boolean>`not exists (select 1 from ${r} where ${takesPart} and ${r.status} not in (${statusList([...DONE_STATUSES, 'cancelled'])}))`,
  };
}

/** rules.ts `partDone`: a cc, an approved approver, or a signed and sealed signer. */
export function partDoneSql(): SQL<boolean> {
  return sql<boolean>`(${r.role} = ${sql.raw(`'${COPY_ROLE}'`)} or ${r.status} = 'cancelled' or (${r.role} = 'approver' and ${r.status} = 'approved') or (${r.role} = 'signer' and ${r.status} = 'signed' and ${r.sealStatus} is not distinct from 'sealed'))`;
}

/** rules.ts `readyToFinalise` over a group of one document's rows. */
export function readyToFinaliseSql(): SQL<boolean> {
  return sql<boolean>`(bool_or(${r.role} <> ${sql.raw(`'${COPY_ROLE}'`)} and ${r.status} <> 'cancelled') and bool_and(${partDoneSql()}))`;
}

/** The request takes part and is done (rules.ts `DONE_STATUSES`). */
export function doneSql(): SQL<boolean> {
  return sql<boolean>`(${r.status} in (${statusList(DONE_STATUSES)}))`;
}

/** rules.ts `waitingFor` of each row over its document's requests, as a correlated count. */
export function waitingForSql(): SQL<number> {
  return sql<number>`(select count(*)::int from ${r} o where o.document_id = ${r.documentId} and o.id <> ${r.id} and o.role <> ${sql.raw(`'${COPY_ROLE}'`)} and o.status not in (${statusList([...DONE_STATUSES, 'cancelled'])}) and (${r.role} = ${sql.raw(`'${COPY_ROLE}'`)} or o.signing_order < ${r.signingOrder}))`;
}

/**
 * rules.ts `cancelledByExpiry` for a waiting row: a signer or approver of its document has
 * expired (or its expiry is due), so the row's turn can never come.
 */
export function blockedByExpirySql(now: Date | Placeholder): SQL<boolean> {
  return sql<boolean>`(${r.status} = ${status(WAITING)} and exists (select 1 from ${r} e where e.document_id = ${r.documentId} and e.role <> ${sql.raw(`'${COPY_ROLE}'`)} and (e.status = ${status(EXPIRY.to)} or (e.status = ${status(EXPIRY.from)} and e.expires_at <= ${instant(now)}::timestamptz))))`;
}
