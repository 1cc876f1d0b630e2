import { z } from 'zod';

/** A reminder every N hours while a request is pending: 0 for none, otherwise at least 24 (at most 30 days). */
export const ZReminderEveryHours = z
  .number()
  .int()
  .refine((h) => h === 0 || (h >= 24 && h <= 720), 'must be 0 (no reminders) or 24 to 720 hours');

/** `PUT` replaces the settings: an absent field takes its default. */
export const ZTenantSettingsBodySchema = z.object({
  notify_email: z.email().max(254).nullable().default(null).describe('Where decline and completion notices to the tenant go (null: none)'),
  reminder_every_hours: ZReminderEveryHours.default(72).describe('Default for new requests: a reminder every N hours while pending; 0 for none, at least 24 (default 72)'),
  reminder_max: z.number().int().min(0).max(10).default(3).describe('Default for new requests: at most this many reminders (default 3)'),
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
