import { and, count, desc, eq, getTableColumns, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { tenants } from '../keys/tables';
import { documents } from './tables';

export const DOCUMENT_STATUSES = ['draft', 'pending', 'signed', 'expired', 'erased'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export type DocumentRow = typeof documents.$inferSelect & { status: DocumentStatus };

/**
 * A document's status, from its requests: draft without any, pending while one can still
 * be signed, signed when all are, expired when none is pending and some expired unsigned.
 * Cancelled requests (erasure) do not count. A pending request past its expiry counts as
 * expired even before anyone has looked at it.
 */
// Written with qualified names: inside the subqueries an unqualified "id" would be the request's.
const statusSql: SQL<DocumentStatus> = sql<DocumentStatus>`case
  when "documents"."erased_at" is not null then 'erased'
  when not exists (select 1 from "signing_requests" r where r.document_id = "documents"."id" and r.status <> 'cancelled') then 'draft'
  when exists (select 1 from "signing_requests" r where r.document_id = "documents"."id" and r.status = 'pending' and r.expires_at > now()) then 'pending'
  when not exists (select 1 from "signing_requests" r where r.document_id = "documents"."id" and r.status not in ('signed', 'cancelled')) then 'signed'
  else 'expired' end`;

const columns = { ...getTableColumns(documents), status: statusSql };

/** The only code that touches the documents table. */
export function createDocumentsRepository(db: EsignDb) {
  return {
    async insert(values: typeof documents.$inferInsert): Promise<DocumentRow> {
      const [row] = await db.insert(documents).values(values).returning();
      return { ...row!, status: 'draft' };
    },

    async find(id: string): Promise<DocumentRow | null> {
      const [row] = await db.select(columns).from(documents).where(eq(documents.id, id)).limit(1);
      return row ?? null;
    },

    async tenantName(tenantId: string): Promise<string> {
      const [row] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
      return row?.name ?? '';
    },

    /** Locks the row until the transaction ends: request creation, finalisation and erasure serialise on it. */
    async lock(id: string): Promise<DocumentRow | null> {
      const [row] = await db.select(columns).from(documents).where(eq(documents.id, id)).for('update').limit(1);
      return row ?? null;
    },

    async page(tenantId: string, options: { status?: DocumentStatus; page: number; pageSize: number }): Promise<{ rows: DocumentRow[]; total: number }> {
      const where = and(eq(documents.tenantId, tenantId), options.status ? sql`${statusSql} = ${options.status}` : undefined);
      const [rows, [total]] = await Promise.all([
        db
          .select(columns)
          .from(documents)
          .where(where)
          .orderBy(desc(documents.createdAt), desc(documents.id))
          .limit(options.pageSize)
          .offset((options.page - 1) * options.pageSize),
        db.select({ n: count() }).from(documents).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /**
     * Claims the building of the final PDF: succeeds for one caller at a time, and again
     * after `staleAfterMs` should a builder have died without releasing its claim.
     */
    async claimFinalisation(id: string, at: Date, staleAfterMs: number): Promise<boolean> {
      const rows = await db
        .update(documents)
        .set({ finaliseClaimedAt: at })
        .where(
          and(
            eq(documents.id, id),
            isNull(documents.finalisedAt),
            isNull(documents.erasedAt),
            or(isNull(documents.finaliseClaimedAt), lt(documents.finaliseClaimedAt, new Date(at.getTime() - staleAfterMs))),
          ),
        )
        .returning({ id: documents.id });
      return rows.length === 1;
    },

    /**
     * Documents whose every request is signed and sealed but whose final PDF was never built
     * and is not being built (no claim, or a claim older than `claimStaleBefore`).
     */
    async awaitingFinalisationIds(claimStaleBefore: Date): Promise<string[]> {
      const rows = await db
        .select({ id: documents.id })
        .from(documents)
        .where(
          and(
            isNull(documents.finalisedAt),
            isNull(documents.erasedAt),
            or(isNull(documents.finaliseClaimedAt), lt(documents.finaliseClaimedAt, claimStaleBefore)),
            sql`exists (select 1 from "signing_requests" r where r.document_id = "documents"."id")`,
            // "is distinct from": a null seal status must count as not sealed.
            sql`not exists (select 1 from "signing_requests" r where r.document_id = "documents"."id" and (r.status <> 'signed' or r.seal_status is distinct from 'sealed'))`,
          ),
        );
      return rows.map((r) => r.id);
    },

    async releaseFinalisation(id: string): Promise<void> {
      await db.update(documents).set({ finaliseClaimedAt: null }).where(eq(documents.id, id));
    },

    /** Records the final PDF unless the document was finalised or erased meanwhile. */
    async markFinalised(id: string, final: { sha256: string; level: 'B-B' | 'B-T'; tsaTime: Date | null; at: Date }): Promise<boolean> {
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
