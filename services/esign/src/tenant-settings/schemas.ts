import { z } from 'zod';
import { ZReminderEveryHours } from '../signing-requests/schemas';

/** `PUT` replaces the settings: an absent field takes its default. */
export const ZTenantSettingsBodySchema = z.object({
  notify_email: z.email().max(254).nullable().default(null).describe('Where decline notices and the tenant\'s completion copy go (null, the default: none)'),
  reminder_every_hours: ZReminderEveryHours.default(72).describe('Default of new requests: a reminder every N hours while pending; 0 for none, otherwise 24-720 (default 72)'),
  reminder_max: z.number().int().min(0).max(10).default(3).describe('Default of new requests: at most this many reminders (default 3)'),
});

export const ZTenantSettingsSchema = z
  .object({
    notify_email: z.string().nullable(),
    reminder_every_hours: z.number().int(),
    reminder_max: z.number().int(),
    updated_at: z.iso.datetime().nullable().describe('null while every setting is its default'),
  })
  .openapi('TenantSettings');
export type TTenantSettings = z.infer<typeof ZTenantSettingsSchema>;
