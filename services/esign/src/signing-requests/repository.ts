import { and, asc, eq, getTableColumns, inArray, isNotNull, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { preparedQuery, UNNAMED } from '../db/prepared';
import { COPY_ROLE, EXPIRY, WAITING } from './rules';
import { blockedByExpirySql, effectiveStatusSql, expiryDueSql, readyToFinaliseSql, stillPendingSql, waitingForSql } from './status-sql';
import { signingRequests } from './tables';
import type { FieldValues } from './field-schemas';

export type SigningRequestRow = typeof signingRequests.$inferSelect;
export type SigningRequestPatch = Partial<typeof signingRequests.$inferInsert>;

/** What a confirmation decided on: the row's fields that a concurrent step could change. */
export type SeenRequest = Pick<SigningRequestRow, 'id' | 'otpHash' | 'otpFailedAttempts'>;

/**
 * The row is still as the confirmation saw it: pending, not locked, the same code and the
 * same count of wrong codes. An update guarded by it changes nothing when another step got
 * there first (a concurrent confirmation, a new code, expiry, cancellation), and the caller
 * decides again on the row as it is now.
 */
function unchangedSince(id: SQLWrapper | string, otpHash: SQLWrapper | string | null, failures: SQLWrapper | number): SQL {
  return sql`${signingRequests.id} = ${id} and ${signingRequests.status} = 'pending' and ${signingRequests.lockedAt} is null and ${signingRequests.otpHash} = ${otpHash} and ${signingRequests.otpFailedAttempts} = ${failures}`;
}

/** The request's place among its document's signers in rules.ts `stampOrder` (0 for the first): its stamp's slot. */
const POSITION = sql<number>`(select count(*)::int from "signing_requests" "earlier" where "earlier"."document_id" = "signing_requests"."document_id" and "earlier"."role" = 'signer' and ("earlier"."signing_order", "earlier"."created_at", "earlier"."id") < ("signing_requests"."signing_order", "signing_requests"."created_at", "signing_requests"."id"))`;


/** The only code that touches signing_requests. */
export function createSigningRequestsRepository(db: EsignDb) {
  // The signee flow's and the seal's queries, built once (db/prepared.ts).
  const byId = preparedQuery(db, () => db.select().from(signingRequests).where(eq(signingRequests.id, sql.placeholder('id'))).limit(1).prepare(UNNAMED));
  const byTokenHash = preparedQuery(db, () => db.select().from(signingRequests).where(eq(signingRequests.tokenHash, sql.placeholder('tokenHash'))).limit(1).prepare(UNNAMED));
  const lockedByTokenHash = preparedQuery(db, () =>
    db.select().from(signingRequests).where(eq(signingRequests.tokenHash, sql.placeholder('tokenHash'))).for('update').limit(1).prepare(UNNAMED),
  );
  // The signing write: guarded (unchangedSince), answering the row and its stamp slot.
  const signedNow = preparedQuery(db, () =>
    db
      .update(signingRequests)
      .set({
        status: 'signed',
        signedAt: sql`${sql.placeholder('signedAt')}::timestamptz`,
        otpHash: null,
        otpExpiresAt: null,
        sealedToken: null,
        nextReminderAt: null,
        sealStatus: 'sealing',
        signatureImageKey: sql`${sql.placeholder('imageKey')}`,
        hasSignatureImage: sql`${sql.placeholder('hasImage')}::boolean`,
        initialsImageKey: sql`${sql.placeholder('initialsKey')}`,
        fieldValues: sql`${sql.placeholder('fieldValues')}::jsonb`,
      })
      .where(unchangedSince(sql.placeholder('id'), sql.placeholder('otpHash'), sql.placeholder('failures')))
      .returning({ ...getTableColumns(signingRequests), position: POSITION })
      .prepare(UNNAMED),
  );
  const sealedNow = preparedQuery(db, () =>
    db
      .update(signingRequests)
      .set({
        sealStatus: 'sealed',
        signatureLevel: sql`${sql.placeholder('level')}`,
        tsaTime: sql`${sql.placeholder('tsaTime')}::timestamptz`,
        signedSha256: sql`${sql.placeholder('sha256')}`,
        sealedAt: sql`${sql.placeholder('at')}::timestamptz`,
        sealError: null,
      })
      .where(and(eq(signingRequests.id, sql.placeholder('id')), ne(signingRequests.sealStatus, 'sealed')))
      .returning()
      .prepare(UNNAMED),
  );
  const position = preparedQuery(db, () =>
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(signingRequests)
      .where(
        and(
          eq(signingRequests.documentId, sql.placeholder('documentId')),
          eq(signingRequests.role, 'signer'),
          // rules.ts `stampOrder`: signers by order, then creation.
          sql`(${signingRequests.signingOrder}, ${signingRequests.createdAt}, ${signingRequests.id}) < (select me.signing_order, me.created_at, me.id from ${signingRequests} me where me.id = ${sql.placeholder('id')})`,
        ),
      )
      .prepare(UNNAMED),
  );
  const sealedCounts = preparedQuery(db, () =>
    db
      .select({ ready: sql<boolean>`coalesce(${readyToFinaliseSql()}, false)` })
      .from(signingRequests)
      .where(eq(signingRequests.documentId, sql.placeholder('documentId')))
      .prepare(UNNAMED),
  );
  return {
    async insert(values: typeof signingRequests.$inferInsert): Promise<SigningRequestRow> {
      const [row] = await db.insert(signingRequests).values(values).returning();
      return row!;
    },

    async find(id: string): Promise<SigningRequestRow | null> {
      const [row] = await byId({ id });
      return row ?? null;
    },

    async findByTokenHash(tokenHash: string): Promise<SigningRequestRow | null> {
      const [row] = await byTokenHash({ tokenHash });
      return row ?? null;
    },

    /** The request whose completion link has this token hash (send-completion-copies.ts). */
    async findByCopyTokenHash(copyTokenHash: string): Promise<SigningRequestRow | null> {
      const [row] = await db.select().from(signingRequests).where(eq(signingRequests.copyTokenHash, copyTokenHash)).limit(1);
      return row ?? null;
    },

    /** Locks the request (by id) until the transaction ends: a reminder and a confirmation do not cross. */
    async lockById(id: string): Promise<SigningRequestRow | null> {
      const [row] = await db.select().from(signingRequests).where(eq(signingRequests.id, id)).for('update').limit(1);
      return row ?? null;
    },

    /** Pending requests owed a scheduled reminder or the expiry warning at `now` (rules.ts `reminderDue`). */
    async remindersDue(now: Date, warnBefore: Date): Promise<string[]> {
      const rows = await db
        .select({ id: signingRequests.id })
        .from(signingRequests)
        .where(
          and(
            stillPendingSql(now),
            // A request without its sealed link (created before reminders) cannot be reminded.
            isNotNull(signingRequests.sealedToken),
            sql`((${signingRequests.nextReminderAt} <= ${now.toISOString()}::timestamptz) or (${signingRequests.expiryWarnedAt} is null and ${signingRequests.expiresAt} <= ${warnBefore.toISOString()}::timestamptz))`,
          ),
        )
        .limit(500);
      return rows.map((r) => r.id);
    },

    /** Documents with a waiting request whose turn an expiry has blocked for good (rules.ts `cancelledByExpiry`), for the sweep; at most 200 a round. */
    async documentsBlockedByExpiry(now: Date): Promise<string[]> {
      const rows = await db.selectDistinct({ documentId: signingRequests.documentId }).from(signingRequests).where(blockedByExpirySql(now)).limit(200);
      return rows.map((r) => r.documentId);
    },

    /** Locks the request until the transaction ends: of two confirmations, the second waits and then sees the first's outcome. */
    async lockByTokenHash(tokenHash: string): Promise<SigningRequestRow | null> {
      const [row] = await lockedByTokenHash({ tokenHash });
      return row ?? null;
    },

    listForDocument(documentId: string): Promise<SigningRequestRow[]> {
      return db.select().from(signingRequests).where(eq(signingRequests.documentId, documentId)).orderBy(asc(signingRequests.createdAt), asc(signingRequests.id));
    },

    /**
     * rules.ts `dueForRelease` in one statement: the document's waiting requests (not cc) that
     * wait for no one any more (status-sql.ts `waitingForSql`) become pending. The caller holds
     * the document's row lock, so the statement sees every earlier confirmation committed.
     */
    async releaseDue(documentId: string, now: Date): Promise<SigningRequestRow[]> {
      return db
        .update(signingRequests)
        // rules.ts `firstReminderAt`, counted from the release.
        .set({
          status: 'pending',
          // rules.ts `expiryAtRelease`: the request's window counts from its release, never shorter than before.
          expiresAt: sql`greatest(${signingRequests.expiresAt}, ${now.toISOString()}::timestamptz + (${signingRequests.expiresAt} - ${signingRequests.createdAt}))`,
          nextReminderAt: sql`case when ${signingRequests.reminderEveryHours} > 0 and ${signingRequests.reminderMax} > 0 then ${now.toISOString()}::timestamptz + ${signingRequests.reminderEveryHours} * interval '1 hour' end`,
        })
        .where(and(eq(signingRequests.documentId, documentId), eq(signingRequests.status, WAITING), ne(signingRequests.role, COPY_ROLE), sql`${waitingForSql()} = 0`))
        .returning();
    },

    /**
     * The request's place among its document's signers in rules.ts `stampOrder` (0 for the first): the
     * slot of its stamp. Counted by the database, so a seal reads one number instead of
     * every request of the document.
     */
    async positionInDocument(documentId: string, id: string): Promise<number> {
      const [row] = await position({ documentId, id });
      return row?.n ?? 0;
    },

    /**
     * Signs the request if it is still as `seen` (unchangedSince): the signed row and its
     * stamp slot, or null when another step changed it first.
     */
    async signIfUnchanged(seen: SeenRequest, signed: { at: Date; imageKey: string | null; fieldValues?: FieldValues | null; initialsImageKey?: string | null }): Promise<{ row: SigningRequestRow; position: number } | null> {
      const [updated] = await signedNow({
        id: seen.id,
        otpHash: seen.otpHash,
        failures: seen.otpFailedAttempts,
        signedAt: signed.at.toISOString(),
        imageKey: signed.imageKey,
        hasImage: signed.imageKey !== null,
        initialsKey: signed.initialsImageKey ?? null,
        fieldValues: signed.fieldValues ? JSON.stringify(signed.fieldValues) : null,
      });
      if (!updated) return null;
      const { position, ...row } = updated;
      return { row, position };
    },

    /** Applies `patch` (a wrong code counted, the lock) if the request is still as `seen`; answers whether it did. */
    async updateIfUnchanged(seen: SeenRequest, patch: SigningRequestPatch): Promise<boolean> {
      const rows = await db
        .update(signingRequests)
        .set(patch)
        .where(unchangedSince(seen.id, seen.otpHash, seen.otpFailedAttempts))
        .returning({ id: signingRequests.id });
      return rows.length === 1;
    },

    async update(id: string, patch: SigningRequestPatch): Promise<void> {
      await db.update(signingRequests).set(patch).where(eq(signingRequests.id, id));
    },

    /** Sets viewed_at on the first view only. */
    async markViewed(id: string, at: Date): Promise<void> {
      await db
        .update(signingRequests)
        .set({ viewedAt: sql`coalesce(${signingRequests.viewedAt}, ${at.toISOString()}::timestamptz)` })
        .where(eq(signingRequests.id, id));
    },

    /** Pending requests past their expiry become expired; returns them so the caller records the events. */
    async expireDue(filter: { documentId?: string; id?: string }, now: Date): Promise<SigningRequestRow[]> {
      return db
        .update(signingRequests)
        .set({ status: EXPIRY.to, sealedToken: null, nextReminderAt: null })
        .where(
          and(
            expiryDueSql(now),
            filter.documentId ? eq(signingRequests.documentId, filter.documentId) : undefined,
            filter.id ? eq(signingRequests.id, filter.id) : undefined,
          ),
        )
        .returning();
    },

    /**
     * Records the seal unless it was recorded already: the sealed row, or null. The caller
     * holds the document's row lock and has checked it is not erased (erasure takes the same lock).
     */
    /** Records the seal, once: null when it was recorded before. */
    async markSealed(id: string, seal: { level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA'; tsaTime: Date | null; sha256: string; at: Date }): Promise<SigningRequestRow | null> {
      const [row] = await sealedNow({ id, level: seal.level, tsaTime: seal.tsaTime?.toISOString() ?? null, sha256: seal.sha256, at: seal.at.toISOString() });
      return row ?? null;
    },

    async recordSealFailure(id: string, error: string, final: boolean): Promise<void> {
      await db
        .update(signingRequests)
        .set({ sealError: error.slice(0, 500), ...(final ? { sealStatus: 'failed' as const } : {}) })
        .where(and(eq(signingRequests.id, id), ne(signingRequests.sealStatus, 'sealed')));
    },

    /** Erasure: pending and waiting requests are cancelled (their links stop working). */
    async cancelPending(documentId: string, at: Date): Promise<SigningRequestRow[]> {
      return db
        .update(signingRequests)
        .set({ status: 'cancelled', cancelledAt: at, otpHash: null, otpExpiresAt: null, sealedToken: null, nextReminderAt: null })
        .where(and(eq(signingRequests.documentId, documentId), inArray(signingRequests.status, ['pending', 'waiting'])))
        .returning();
    },

    /** Erasure: every personal field becomes `[suprimido]` (or goes, for the OTP and image). */
    async anonymiseDocument(documentId: string): Promise<number> {
      const rows = await db
        .update(signingRequests)
        .set({
          signeeEmail: '[suprimido]',
          signeeName: sql`case when ${signingRequests.signeeName} is null then null else '[suprimido]' end`,
          message: sql`case when ${signingRequests.message} is null then null else '[suprimido]' end`,
          redirectUrl: sql`case when ${signingRequests.redirectUrl} is null then null else '[suprimido]' end`,
          otpHash: null,
          signatureImageKey: null,
          initialsImageKey: null,
          copyTokenHash: null,
          copyExpiresAt: null,
          sealedToken: null,
          reassignedFrom: sql`case when ${signingRequests.reassignedFrom} is null then null else '[suprimido]' end`,
          reassignReason: sql`case when ${signingRequests.reassignReason} is null then null else '[suprimido]' end`,
          declineReason: sql`case when ${signingRequests.declineReason} is null then null else '[suprimido]' end`,
          fieldValues: null,
          cancelReason: sql`case when ${signingRequests.cancelReason} is null or ${signingRequests.cancelReason} = 'declined' then ${signingRequests.cancelReason} else '[suprimido]' end`,
        })
        .where(eq(signingRequests.documentId, documentId))
        .returning({ id: signingRequests.id });
      return rows.length;
    },

    /** rules.ts `readyToFinalise`: every signer signed and sealed, every approver approved (and at least one of them). */
    async allSealed(documentId: string): Promise<boolean> {
      const [row] = await sealedCounts({ documentId });
      return Boolean(row?.ready);
    },

    /** Of these documents, those with at least one request and every request signed and sealed. */
    async fullySealedAmong(documentIds: string[]): Promise<string[]> {
      if (documentIds.length === 0) return [];
      const rows = await db
        .select({ documentId: signingRequests.documentId })
        .from(signingRequests)
        .where(inArray(signingRequests.documentId, documentIds))
        .groupBy(signingRequests.documentId)
        .having(readyToFinaliseSql());
      return rows.map((r) => r.documentId);
    },

    /** The request whose sealed copy has this SHA-256 (public verification of an uploaded file). */
    async findBySignedSha256(sha256: string): Promise<SigningRequestRow | null> {
      const [row] = await db.select().from(signingRequests).where(eq(signingRequests.signedSha256, sha256)).limit(1);
      return row ?? null;
    },

    /** Per tenant: requests, signatures, the last signature (administration). */
    async tenantSummaries(): Promise<{ tenantId: string; requests: number; signatures: number; lastSignedAt: Date | null; lastCreatedAt: Date }[]> {
      const rows = await db
        .select({
          tenantId: signingRequests.tenantId,
          requests: sql<number>`count(*)::int`,
          signatures: sql<number>`(count(*) filter (where ${signingRequests.status} = 'signed'))::int`,
          lastSignedAt: sql<Date | null>`max(${signingRequests.signedAt})`,
          lastCreatedAt: sql<Date>`max(${signingRequests.createdAt})`,
        })
        .from(signingRequests)
        .groupBy(signingRequests.tenantId);
      return rows.map((r) => ({ ...r, lastSignedAt: r.lastSignedAt ? new Date(r.lastSignedAt) : null, lastCreatedAt: new Date(r.lastCreatedAt) }));
    },

    /** The tenant's requests still signable at `now` (tenant erasure waits for them). */
    async pendingOfTenant(tenantId: string, now: Date): Promise<string[]> {
      const rows = await db
        .select({ id: signingRequests.id })
        .from(signingRequests)
        .where(and(eq(signingRequests.tenantId, tenantId), stillPendingSql(now)));
      return rows.map((r) => r.id);
    },

    /** Global request figures at `now` (administration). */
    async stats(now: Date): Promise<{ byStatus: Record<string, number>; signedSince: { d1: number; d7: number; d30: number }; medianSecondsToSign: number | null }> {
      const at = now.toISOString();
      const [byStatus, [figures]] = await Promise.all([
        db
          .select({ status: effectiveStatusSql(now), n: sql<number>`count(*)::int` })
          .from(signingRequests)
          .groupBy(sql`1`),
        db
          .select({
            d1: sql<number>`(count(*) filter (where ${signingRequests.signedAt} > ${at}::timestamptz - interval '1 day'))::int`,
            d7: sql<number>`(count(*) filter (where ${signingRequests.signedAt} > ${at}::timestamptz - interval '7 days'))::int`,
            d30: sql<number>`(count(*) filter (where ${signingRequests.signedAt} > ${at}::timestamptz - interval '30 days'))::int`,
            median: sql<number | null>`percentile_cont(0.5) within group (order by extract(epoch from ${signingRequests.signedAt} - ${signingRequests.createdAt})) filter (where ${signingRequests.signedAt} is not null)`,
          })
          .from(signingRequests),
      ]);
      return {
        byStatus: Object.fromEntries(byStatus.map((r) => [r.status, r.n])),
        signedSince: { d1: figures?.d1 ?? 0, d7: figures?.d7 ?? 0, d30: figures?.d30 ?? 0 },
        medianSecondsToSign: figures?.median == null ? null : Math.round(Number(figures.median)),
      };
    },

    async pendingSealIds(): Promise<string[]> {
      const rows = await db
        .select({ id: signingRequests.id })
        .from(signingRequests)
        .where(and(eq(signingRequests.status, 'signed'), eq(signingRequests.sealStatus, 'sealing'), isNotNull(signingRequests.signedAt)))
        // The oldest first: the sweep resumes them in the order they were signed.
        .orderBy(asc(signingRequests.signedAt), asc(signingRequests.id));
      return rows.map((r) => r.id);
    },
  };
}

export type SigningRequestsRepository = ReturnType<typeof createSigningRequestsRepository>;
