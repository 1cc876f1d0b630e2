import { inArray, and, asc, eq, isNull, sql, TransactionRollbackError } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { apiKeys, tenants } from './tables';

export type KeyRole = 'tenant' | 'superadmin';

export interface KeyRecord {
  id: string;
  tenantId: string;
  tenant: string;
  role: KeyRole;
  prefix: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** After this the key answers 401; for a rotated key, the end of the overlap. */
  expiresAt: Date | null;
  /** The key a rotation issued in its place. */
  replacedBy: string | null;
}

export interface TenantRecord {
  id: string;
  name: string;
  displayName: string | null;
  createdAt: Date;
}

const keyColumns = {
  id: apiKeys.id,
  tenantId: apiKeys.tenantId,
  tenant: tenants.name,
  role: apiKeys.role,
  prefix: apiKeys.prefix,
  label: apiKeys.label,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
  expiresAt: apiKeys.expiresAt,
  replacedBy: apiKeys.replacedBy,
};

/** The only code that touches the tenants and api_keys tables. */
export function createKeysRepository(db: EsignDb) {
  const selectKeysIn = (q: Pick<EsignDb, 'select'>) => q.select(keyColumns).from(apiKeys).innerJoin(tenants, eq(tenants.id, apiKeys.tenantId));

  return {
    /** A new tenant; null when one with this name exists. */
    async insertTenant(input: { name: string; displayName?: string }): Promise<TenantRecord | null> {
      const [row] = await db.insert(tenants).values({ name: input.name, displayName: input.displayName }).onConflictDoNothing({ target: tenants.name }).returning();
      return row ?? null;
    },

    /** A key for an existing tenant (by id); the CLI's `insertKey` creates the tenant on first use instead. */
    async insertTenantKey(input: { tenantId: string; role: KeyRole; keyHash: string; prefix: string; label?: string | null; expiresAt?: Date | null }): Promise<KeyRecord> {
      const [row] = await db
        .insert(apiKeys)
        .values({ tenantId: input.tenantId, role: input.role, keyHash: input.keyHash, prefix: input.prefix, label: input.label, expiresAt: input.expiresAt })
        .returning({ id: apiKeys.id });
      const [record] = await selectKeysIn(db).where(eq(apiKeys.id, row!.id));
      return record!;
    },

    /**
     * Rotation in one transaction: inserts the replacement (same tenant and role) and makes
     * the old key expire at `overlapEndsAt`, pointing at its replacement. Null when the old key
     * was revoked or rotated meanwhile.
     */
    async replaceKey(
      old: KeyRecord,
      replacement: { keyHash: string; prefix: string; label: string | null; expiresAt: Date | null },
      overlapEndsAt: Date,
    ): Promise<{ replacement: KeyRecord; old: KeyRecord } | null> {
      return db
        .transaction(async (tx) => {
          const [row] = await tx
            .insert(apiKeys)
            .values({ tenantId: old.tenantId, role: old.role, keyHash: replacement.keyHash, prefix: replacement.prefix, label: replacement.label, expiresAt: replacement.expiresAt })
            .returning({ id: apiKeys.id });
          const updated = await tx
            .update(apiKeys)
            .set({ expiresAt: overlapEndsAt, replacedBy: row!.id })
            .where(and(eq(apiKeys.id, old.id), isNull(apiKeys.revokedAt), isNull(apiKeys.replacedBy)))
            .returning({ id: apiKeys.id });
          if (updated.length !== 1) tx.rollback();
          const [created] = await selectKeysIn(tx).where(eq(apiKeys.id, row!.id));
          const [replaced] = await selectKeysIn(tx).where(eq(apiKeys.id, old.id));
          return { replacement: created!, old: replaced! };
        })
        .catch((err: unknown) => {
          if (err instanceof TransactionRollbackError) return null;
          throw err;
        });
    },

    /** The key with this id, revoked ones included. */
    async findById(id: string): Promise<KeyRecord | null> {
      const [row] = await selectKeysIn(db).where(eq(apiKeys.id, id)).limit(1);
      return row ?? null;
    },

    async insertKey(input: { tenant: string; role: KeyRole; keyHash: string; prefix: string; label?: string }): Promise<KeyRecord> {
      return db.transaction(async (tx) => {
        const [tenant] = await tx
          .insert(tenants)
          .values({ name: input.tenant })
          .onConflictDoUpdate({ target: tenants.name, set: { name: sql`excluded.name` } })
          .returning({ id: tenants.id, name: tenants.name });
        const [row] = await tx
          .insert(apiKeys)
          .values({ tenantId: tenant!.id, role: input.role, keyHash: input.keyHash, prefix: input.prefix, label: input.label })
          .returning();
        return { ...row!, tenant: tenant!.name };
      });
    },

    async findActiveByHash(keyHash: string): Promise<KeyRecord | null> {
      const [row] = await db
        .select(keyColumns)
        .from(apiKeys)
        .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
        .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
        .limit(1);
      return row ?? null;
    },

    async list(tenant?: string): Promise<KeyRecord[]> {
      return db
        .select(keyColumns)
        .from(apiKeys)
        .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
        .where(tenant ? eq(tenants.name, tenant) : undefined)
        .orderBy(asc(tenants.name), asc(apiKeys.createdAt));
    },

    /** Active keys whose id or listed prefix is `idOrPrefix`. */
    async findActive(idOrPrefix: string): Promise<KeyRecord[]> {
      const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
      return db
        .select(keyColumns)
        .from(apiKeys)
        .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
        .where(and(isUuid ? eq(apiKeys.id, idOrPrefix) : eq(apiKeys.prefix, idOrPrefix), isNull(apiKeys.revokedAt)));
    },

    /** The tenant's keys not revoked yet (tenant erasure revokes them one by one, as `revoke` does). */
    async activeOfTenant(tenantId: string): Promise<KeyRecord[]> {
      return db
        .select(keyColumns)
        .from(apiKeys)
        .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
        .where(and(eq(apiKeys.tenantId, tenantId), isNull(apiKeys.revokedAt)));
    },

    /**
     * Tenant erasure, last step: the tenant row and its (revoked) key rows. A new key for the
     * same name later makes a new tenant, with a new id.
     */
    async removeTenant(tenantId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(apiKeys).where(eq(apiKeys.tenantId, tenantId));
        await tx.delete(tenants).where(eq(tenants.id, tenantId));
      });
    },

    /** Revokes one key by id; false when it was already revoked. */
    async revoke(id: string, at: Date): Promise<boolean> {
      const rows = await db.update(apiKeys).set({ revokedAt: at }).where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt))).returning({ id: apiKeys.id });
      return rows.length === 1;
    },

    async tenantName(tenantId: string): Promise<string | null> {
      const [row] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
      return row?.name ?? null;
    },

    async tenantByName(name: string): Promise<TenantRecord | null> {
      const [row] = await db.select().from(tenants).where(eq(tenants.name, name)).limit(1);
      return row ?? null;
    },

    async tenantNames(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.select({ id: tenants.id, name: tenants.name }).from(tenants).where(inArray(tenants.id, ids));
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    async countKeys(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
      return row?.n ?? 0;
    },

    /** Moves `last_used_at` forward only, so retried or reordered touches are harmless. */
    async touch(id: string, at: Date): Promise<void> {
      await db
        .update(apiKeys)
        .set({ lastUsedAt: sql`greatest(${apiKeys.lastUsedAt}, ${at.toISOString()}::timestamptz)` })
        .where(eq(apiKeys.id, id));
    },
  };
}

export type KeysRepository = ReturnType<typeof createKeysRepository>;
