import { eq } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { tenantSettings } from './tables';

export type TenantSettingsRow = typeof tenantSettings.$inferSelect;

/** The only code that touches tenant_settings. */
export function createTenantSettingsRepository(db: EsignDb) {
  return {
    async find(tenantId: string): Promise<TenantSettingsRow | null> {
      const [row] = await db.select().from(tenantSettings).where(eq(tenantSettings.tenantId, tenantId)).limit(1);
      return row ?? null;
    },
    async put(row: TenantSettingsRow): Promise<TenantSettingsRow> {
      const [saved] = await db
        .insert(tenantSettings)
        .values(row)
        .onConflictDoUpdate({ target: tenantSettings.tenantId, set: { notifyEmail: row.notifyEmail, reminderEveryHours: row.reminderEveryHours, reminderMax: row.reminderMax, embedOrigins: row.embedOrigins, updatedAt: row.updatedAt } })
        .returning();
      return saved!;
    },
    /** Only the embed origins, by primary key: the signing page reads them on every load. */
    async embedOrigins(tenantId: string): Promise<string[]> {
      const [row] = await db.select({ origins: tenantSettings.embedOrigins }).from(tenantSettings).where(eq(tenantSettings.tenantId, tenantId)).limit(1);
      return row?.origins ?? [];
    },
    async remove(tenantId: string): Promise<boolean> {
      const rows = await db.delete(tenantSettings).where(eq(tenantSettings.tenantId, tenantId)).returning({ id: tenantSettings.tenantId });
      return rows.length > 0;
    },
  };
}

export type TenantSettingsRepository = ReturnType<typeof createTenantSettingsRepository>;
