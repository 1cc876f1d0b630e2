import type { z } from 'zod';
import type { EsignPrincipal } from '../keys/authenticate';
import type { TenantSettingsRepository, TenantSettingsRow } from './repository';
import type { TTenantSettings, ZTenantSettingsBodySchema } from './schemas';

/** The settings a tenant without a row has. */
export const DEFAULT_TENANT_SETTINGS = { notifyEmail: null, reminderEveryHours: 72, reminderMax: 3, embedOrigins: [] as string[] } as const;

function record(row: Pick<TenantSettingsRow, 'notifyEmail' | 'reminderEveryHours' | 'reminderMax'> & { embedOrigins: readonly string[]; updatedAt: Date | null }): TTenantSettings {
  return {
    notify_email: row.notifyEmail,
    reminder_every_hours: row.reminderEveryHours,
    reminder_max: row.reminderMax,
    embed_origins: [...row.embedOrigins],
    updated_at: row.updatedAt?.toISOString() ?? null,
  };
}

export function createTenantSettingsService(deps: { repo: TenantSettingsRepository; clock: () => Date }) {
  const { repo } = deps;
  return {
    async get(principal: EsignPrincipal): Promise<TTenantSettings> {
      return record((await repo.find(principal.tenantId)) ?? { ...DEFAULT_TENANT_SETTINGS, updatedAt: null });
    },
    /** Replaces the settings (absent fields were given their defaults by the schema). */
    async put(principal: EsignPrincipal, body: z.output<typeof ZTenantSettingsBodySchema>): Promise<TTenantSettings> {
      const saved = await repo.put({ tenantId: principal.tenantId, notifyEmail: body.notify_email, reminderEveryHours: body.reminder_every_hours, reminderMax: body.reminder_max, embedOrigins: body.embed_origins, updatedAt: deps.clock() });
      return record(saved);
    },
    /** Where the tenant's decline and completion notices go, or null. */
    async notifyEmail(tenantId: string): Promise<string | null> {
      return (await repo.find(tenantId))?.notifyEmail ?? null;
    },
    /** The reminder defaults of the tenant's new requests. */
    async reminderDefaults(tenantId: string): Promise<{ reminderEveryHours: number; reminderMax: number }> {
      const row = (await repo.find(tenantId)) ?? DEFAULT_TENANT_SETTINGS;
      return { reminderEveryHours: row.reminderEveryHours, reminderMax: row.reminderMax };
    },
    /** The origins allowed to frame the tenant's signing pages (none without settings). */
    embedOrigins: (tenantId: string): Promise<string[]> => repo.embedOrigins(tenantId),
    /** Tenant erasure: the settings row (its notification address) goes; true when there was one. */
    eraseTenant: (tenantId: string) => repo.remove(tenantId),
  };
}

export type TenantSettingsService = ReturnType<typeof createTenantSettingsService>;
