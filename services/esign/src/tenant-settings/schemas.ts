import { z } from 'zod';
import { ZReminderEveryHours } from '../signing-requests/schemas';
import { MAX_EMBED_ORIGINS, normaliseEmbedOrigin } from './embed-origins';

/** One origin allowed to frame the signing pages, normalised (embed-origins.ts); a 422 names its index. */
const ZEmbedOrigin = z.string().transform((value, ctx) => {
  const checked = normaliseEmbedOrigin(value);
  if (checked.ok) return checked.origin;
  ctx.addIssue({ code: 'custom', message: checked.reason });
  return z.NEVER;
});

/** `PUT` replaces the settings: an absent field takes its default. */
export const ZTenantSettingsBodySchema = z.object({
  notify_email: z.email().max(254).nullable().default(null).describe('Where decline notices and the tenant\'s completion copy go (null, the default: none)'),
  reminder_every_hours: ZReminderEveryHours.default(72).describe('Default of new requests: a reminder every N hours while pending; 0 for none, otherwise 24-720 (default 72)'),
  reminder_max: z.number().int().min(0).max(10).default(3).describe('Default of new requests: at most this many reminders (default 3)'),
  embed_origins: z
    .array(ZEmbedOrigin)
    .max(MAX_EMBED_ORIGINS)
    .default([])
    .transform((origins) => [...new Set(origins)])
    .describe(
      'Extension: the origins of the tenant\'s own application allowed to frame its signing pages (at most 5; default none): `https://host[:port]`, or `http://` on 127.0.0.1 or localhost for development. Stored normalised (lowercase, no default port, no path or trailing slash). See "Embedding" in the README',
    ),
});

export const ZTenantSettingsSchema = z
  .object({
    notify_email: z.string().nullable(),
    reminder_every_hours: z.number().int(),
    reminder_max: z.number().int(),
    embed_origins: z.array(z.string()).describe('The origins allowed to frame the signing pages, normalised; empty: no framing'),
    updated_at: z.iso.datetime().nullable().describe('null while every setting is its default'),
  })
  .openapi('TenantSettings', {
    example: { notify_email: 'firmas@acme.example', reminder_every_hours: 72, reminder_max: 3, embed_origins: ['https://app.acme.example', 'http://localhost:5173'], updated_at: '2026-05-04T09:30:00.000Z' },
  });
export type TTenantSettings = z.infer<typeof ZTenantSettingsSchema>;
