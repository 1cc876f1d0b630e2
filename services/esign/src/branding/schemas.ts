import { z } from 'zod';

export const ZHexColor = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a colour written #rrggbb')
  .transform((v) => v.toLowerCase());

/** PUT /firma/marca, a multipart form: these fields and an optional `logo` file part. */
export const ZBrandingFormSchema = z.object({
  display_name: z.string().trim().min(1).max(100).optional().describe('The sender name signees see; default: the tenant name'),
  accent_color: ZHexColor.optional().describe('`#rrggbb`; darkened if needed so that white text on it meets WCAG AA (4.5:1)'),
  logo: z.string().optional().describe('A PNG or SVG file part, at most 256 KiB; drawn again as a PNG of at most 600×200 pixels'),
});

export const ZBrandingSchema = z
  .object({
    tenant: z.string(),
    display_name: z.string().nullable(),
    accent_color: z.string().nullable().describe('As set'),
    accent_color_used: z.string().nullable().describe('As shown: the accent, darkened where needed for WCAG AA contrast with white'),
    logo_url: z.string().nullable().describe('Public URL of the logo (PNG); changes with every new logo'),
    updated_at: z.iso.datetime().nullable(),
  })
  .openapi('Branding');
export type TBranding = z.infer<typeof ZBrandingSchema>;

export const ZLogoParamsSchema = z.object({ logo_id: z.string().regex(/^[A-Za-z0-9_-]{16,64}\.png$/, 'a logo file name').describe('From `logo_url`') });
