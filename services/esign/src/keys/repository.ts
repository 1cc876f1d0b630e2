import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { apiKeys, tenants } from './tables';

export type KeyRole = 'tenant' | 'superadmin';

export interface KeyRecord {
  id: string;
  tenant: string;
  role: KeyRole;
  prefix: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const keyColumns = {
  id: apiKeys.id,
  tenant: tenants.name,
  role: apiKeys.role,
  prefix: apiKeys.prefix,
  label: apiKeys.label,
  createdAt: apiKeys.createdAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
};

/** The only code that touches the tenants and api_keys tables. */
export function createKeysRepository(db: EsignDb) {
  return {
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

    /** Revokes by id or by prefix; returns the revoked rows (none when unknown or already revoked). */
    async revoke(idOrPrefix: string, at: Date): Promise<KeyRecord[]> {
      const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
      const rows = await db
        .update(apiKeys)
        .set({ revokedAt: at })
        .where(and(isUuid ? eq(apiKeys.id, idOrPrefix) : eq(apiKeys.prefix, idOrPrefix), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      if (rows.length === 0) return [];
      const all = await this.list();
      return all.filter((k) => rows.some((r) => r.id === k.id));
    },

    async countKeys(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(apiKeys);
      return row?.n ?? 0;
    },

    async touch(id: string, at: Date): Promise<void> {
      await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
    },
  };
}

export type KeysRepository = ReturnType<typeof createKeysRepository>;
