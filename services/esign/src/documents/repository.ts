import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, lt, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { preparedQuery, UNNAMED } from '../db/prepared';
import { requestFactsSql } from '../signing-requests/status-sql';
import { FINALISE_CLAIM_STALE_MS, ownerKey, type ClaimOwner } from './finalise-claim';
import { DOCUMENT_STATUS_OTHERWISE, DOCUMENT_STATUS_RULE, type DocumentFacts, type DocumentStatus } from './rules';
import { documents } from './tables';

export { DOCUMENT_STATUSES, type DocumentStatus } from './rules';

/** The stored row: what a step that needs no status reads (the signee's link, the seal's lock). */
export type DocumentRecord = typeof documents.$inferSelect;
export type DocumentRow = DocumentRecord & { status: DocumentStatus };

/** rules.ts `DOCUMENT_STATUS_RULE` as an SQL `case`, over the facts the signing-requests feature computes. */
function statusSql(now: Date | Placeholder): SQL<DocumentStatus> {
  const facts: Record<keyof DocumentFacts, SQL<boolean>> = { erased: sql<boolean>`${documents.erasedAt} is not null`, ...requestFactsSql(documents.id, now) };
  const literal = (status: DocumentStatus) => sql.raw(`'${status}'`);
  const whens = DOCUMENT_STATUS_RULE.map((rule) => sql`when ${facts[rule.when]} then ${literal(rule.status)}`);
  return sql<DocumentStatus>`case ${sql.join(whens, sql` `)} else ${literal(DOCUMENT_STATUS_OTHERWISE)} end`;
}

const columns = (now: Date | Placeholder) => ({ ...getTableColumns(documents), status: statusSql(now) });

/** The only code that touches the documents table. */
export function createDocumentsRepository(db: EsignDb) {
  // Every signee request reads its document, every seal locks it: built once (db/prepared.ts).
  const byId = preparedQuery(db, () =>
    db
      .select(columns(sql.placeholder('now')))
      .from(documents)
      .where(eq(documents.id, sql.placeholder('id')))
      .limit(1)
      .prepare(UNNAMED),
  );
  const lockedById = preparedQuery(db, () =>
    db
      .select(columns(sql.placeholder('now')))
      .from(documents)
      .where(eq(documents.id, sql.placeholder('id')))
      .for('update')
      .limit(1)
      .prepare(UNNAMED),
  );
  // The signee's steps read the row, and every seal locks it, without the status's three sub-queries.
  const recordById = preparedQuery(db, () => db.select().from(documents).where(eq(documents.id, sql.placeholder('id'))).limit(1).prepare(UNNAMED));
  const lockedRecordById = preparedQuery(db, () =>
    db.select().from(documents).where(eq(documents.id, sql.placeholder('id'))).for('update').limit(1).prepare(UNNAMED),
  );
  return {
    async insert(values: typeof documents.$inferInsert): Promise<DocumentRow> {
      const [row] = await db.insert(documents).values(values).returning();
      return { ...row!, status: 'draft' };
    },

    /** The document with its status at `now` (from the service's clock). */
    async find(id: string, now: Date): Promise<DocumentRow | null> {
      const [row] = await byId({ id, now: now.toISOString() });
      return row ?? null;
    },

    /** The stored row, without its status. */
    async findRecord(id: string): Promise<DocumentRecord | null> {
      const [row] = await recordById({ id });
      return row ?? null;
    },

    /** `lock` without the status: for a step that only needs the row (the seal checks erasure). */
    async lockRecord(id: string): Promise<DocumentRecord | null> {
      const [row] = await lockedRecordById({ id });
      return row ?? null;
    },

    /** Locks the row until the transaction ends: request creation, sealing, finalisation and erasure serialise on it. */
    async lock(id: string, now: Date): Promise<DocumentRow | null> {
      const [row] = await lockedById({ id, now: now.toISOString() });
      return row ?? null;
    },

    async page(tenantId: string, options: { status?: DocumentStatus; page: number; pageSize: number; now: Date }): Promise<{ rows: DocumentRow[]; total: number }> {
      const where = and(eq(documents.tenantId, tenantId), options.status ? sql`${statusSql(options.now)} = ${options.status}` : undefined);
      const [rows, [total]] = await Promise.all([
        db
          .select(columns(options.now))
          .from(documents)
          .where(where)
          .orderBy(desc(documents.createdAt), desc(documents.id))
          .limit(options.pageSize)
          .offset((options.page - 1) * options.pageSize),
        db.select({ n: count() }).from(documents).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Across tenants (administration): newest first, optionally one tenant's and one status. */
    async adminPage(options: { tenantId?: string; status?: DocumentStatus; limit: number; offset: number; now: Date; oldestFirst?: boolean }): Promise<{ rows: DocumentRow[]; total: number }> {
      const where = and(options.tenantId ? eq(documents.tenantId, options.tenantId) : undefined, options.status ? sql`${statusSql(options.now)} = ${options.status}` : undefined);
      const order = options.oldestFirst ? [asc(documents.createdAt), asc(documents.id)] : [desc(documents.createdAt), desc(documents.id)];
      const [rows, [total]] = await Promise.all([
        db.select(columns(options.now)).from(documents).where(where).orderBy(...order).limit(options.limit).offset(options.offset),
        db.select({ n: count() }).from(documents).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Per tenant owning documents: how many, by status at `now`, bytes stored, first and last upload. */
    async tenantSummaries(now: Date): Promise<{ tenantId: string; documents: number; pending: number; signed: number; erased: number; storageBytes: number; firstAt: Date; lastAt: Date }[]> {
      const status = statusSql(now);
      const rows = await db
        .select({
          tenantId: documents.tenantId,
          documents: sql<number>`count(*)::int`,
          pending: sql<number>`(count(*) filter (where ${status} = 'pending'))::int`,
          signed: sql<number>`(count(*) filter (where ${status} = 'signed'))::int`,
          erased: sql<number>`(count(*) filter (where ${documents.erasedAt} is not null))::int`,
          storageBytes: sql<number>`coalesce(sum(${documents.sizeBytes}) filter (where ${documents.erasedAt} is null), 0)::bigint`,
          firstAt: sql<Date>`min(${documents.createdAt})`,
          lastAt: sql<Date>`max(${documents.createdAt})`,
        })
        .from(documents)
        .groupBy(documents.tenantId);
      return rows.map((r) => ({ ...r, storageBytes: Number(r.storageBytes), firstAt: new Date(r.firstAt), lastAt: new Date(r.lastAt) }));
    },

    /** The document whose final PDF has this SHA-256 (public verification of an uploaded file). */
    async findByFinalSha256(sha256: string, now: Date): Promise<DocumentRow | null> {
      const [row] = await db.select(columns(now)).from(documents).where(eq(documents.finalSha256, sha256)).limit(1);
      return row ?? null;
    },

    /** The ids of a tenant's documents not erased yet. */
    async liveIdsOfTenant(tenantId: string): Promise<string[]> {
      const rows = await db.select({ id: documents.id }).from(documents).where(and(eq(documents.tenantId, tenantId), isNull(documents.erasedAt)));
      return rows.map((r) => r.id);
    },

    /**
     * Unfinalised, unerased documents whose finalisation is not claimed, or whose claim
     * went stale before `claimStaleBefore`: the candidates the recovery sweep checks for
     * "every request sealed" (a question for the signing-requests feature).
     */
    async unclaimedUnfinalisedIds(claimStaleBefore: Date): Promise<string[]> {
      const rows = await db
        .select({ id: documents.id })
        .from(documents)
        .where(and(isNull(documents.finalisedAt), isNull(documents.erasedAt), or(isNull(documents.finaliseClaimedAt), lt(documents.finaliseClaimedAt, claimStaleBefore))));
      return rows.map((r) => r.id);
    },

    /**
     * Claims the building of the final PDF for one job run. This run or an earlier attempt
     * of the same job takes it back at once (the queue runs one attempt at a time, so that
     * holder is gone); another job only once the claim went stale.
     */
    async claimFinalisation(id: string, owner: ClaimOwner, at: Date): Promise<boolean> {
      const sameJob = Array.from({ length: Math.max(1, owner.attempt) }, (_, i) => ownerKey({ jobId: owner.jobId, attempt: i + 1 }));
      const rows = await db
        .update(documents)
        .set({ finaliseClaimedAt: at, finaliseClaimedBy: ownerKey(owner) })
        .where(
          and(
            eq(documents.id, id),
            isNull(documents.finalisedAt),
            isNull(documents.erasedAt),
            or(isNull(documents.finaliseClaimedAt), lt(documents.finaliseClaimedAt, new Date(at.getTime() - FINALISE_CLAIM_STALE_MS)), inArray(documents.finaliseClaimedBy, sameJob)),
          ),
        )
        .returning({ id: documents.id });
      return rows.length === 1;
    },

    /** Renews the claim; false once it was taken over, finalised or erased. */
    async renewFinalisationClaim(id: string, owner: ClaimOwner, at: Date): Promise<boolean> {
      const rows = await db
        .update(documents)
        .set({ finaliseClaimedAt: at })
        .where(and(eq(documents.id, id), eq(documents.finaliseClaimedBy, ownerKey(owner)), isNull(documents.finalisedAt)))
        .returning({ id: documents.id });
      return rows.length === 1;
    },

    /** Gives the claim up after a failure, unless someone else holds it by now. */
    async releaseFinalisationClaim(id: string, owner: ClaimOwner): Promise<void> {
      await db
        .update(documents)
        .set({ finaliseClaimedAt: null, finaliseClaimedBy: null })
        .where(and(eq(documents.id, id), eq(documents.finaliseClaimedBy, ownerKey(owner))));
    },

    /** Records the final PDF unless the document was finalised or erased meanwhile. */
    async markFinalised(id: string, final: { sha256: string; level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA'; tsaTime: Date | null; at: Date }): Promise<boolean> {
      const rows = await db
        .update(documents)
        .set({ finalisedAt: final.at, finalSha256: final.sha256, finalLevel: final.level, finalTsaTime: final.tsaTime, finaliseClaimedAt: null })
        .where(and(eq(documents.id, id), isNull(documents.finalisedAt), isNull(documents.erasedAt)))
        .returning({ id: documents.id });
      return rows.length === 1;
    },

    /** Erasure: the names of the file and document may be personal data; the hashes stay. */
    async markErased(id: string, at: Date): Promise<void> {
      await db
        .update(documents)
        .set({
          erasedAt: at,
          filename: '[suprimido]',
          title: sql`case when ${documents.title} is null then null else '[suprimido]' end`,
          finaliseClaimedAt: null,
        })
        .where(eq(documents.id, id));
    },
  };
}

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
