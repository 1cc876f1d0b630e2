import { z } from 'zod';

/** `PUT` replaces the settings: an absent field takes its default. */
export const ZTenantSettingsBodySchema = z.object({
  notify_email: z.email().max(254).nullable().default(null).describe('Where decline notices and the tenant\'s completion copy go (null, the default: none)'),
});

export const ZTenantSettingsSchema = z
  .object({
    notify_email: z.string().nullable(),
    updated_at: z.iso.datetime().nullable().describe('null while every setting is its default'),
  })
  .openapi('TenantSettings');
export type TTenantSettings = z.infer<typeof ZTenantSettingsSchema>;
