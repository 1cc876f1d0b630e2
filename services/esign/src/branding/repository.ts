import { eq } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { tenantBranding } from './tables';

export type BrandingRow = typeof tenantBranding.$inferSelect;

/** The only code that touches tenant_branding. */
export function createBrandingRepository(db: EsignDb) {
  return {
    async find(tenantId: string): Promise<BrandingRow | null> {
      const [row] = await db.select().from(tenantBranding).where(eq(tenantBranding.tenantId, tenantId)).limit(1);
      return row ?? null;
    },

    async logo(logoId: string): Promise<Buffer | null> {
      const [row] = await db.select({ png: tenantBranding.logoPng }).from(tenantBranding).where(eq(tenantBranding.logoId, logoId)).limit(1);
      return row?.png ?? null;
    },

    async put(row: BrandingRow): Promise<BrandingRow> {
      const { tenantId, ...rest } = row;
      const [saved] = await db.insert(tenantBranding).values(row).onConflictDoUpdate({ target: tenantBranding.tenantId, set: rest }).returning();
      return saved!;
    },

    async remove(tenantId: string): Promise<boolean> {
      const deleted = await db.delete(tenantBranding).where(eq(tenantBranding.tenantId, tenantId)).returning({ id: tenantBranding.tenantId });
      return deleted.length > 0;
    },
  };
}

export type BrandingRepository = ReturnType<typeof createBrandingRepository>;
