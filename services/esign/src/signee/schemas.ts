import { z } from 'zod';
import { ZSignatureSchema } from '../signing-requests/schemas';

/** A checkbox from a form ("true"/"on") or a JSON boolean. */
const ZFlag = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0'])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === 'on' || v === '1');

export const ZTokenParamsSchema = z.object({ token: z.string().min(20).max(128).regex(/^[A-Za-z0-9_-]+$/) });

export const ZSigningPageQuerySchema = z.object({
  locale: z.enum(['es', 'en']).optional().describe("Overrides the request's language"),
  aviso: z.string().max(40).optional().describe('Notice shown after a form post (fixed set of keys)'),
  error: z.string().max(40).optional().describe('Error code shown after a failed form post (fixed set of codes)'),
});

export const ZOtpBodySchema = z.object({
  declaration_accepted: ZFlag.describe('Must be true: the signee accepts the declaration'),
});

export const ZOtpSentSchema = z
  .object({ sent: z.literal(true), expires_in: z.number().int().describe('Seconds the code stays valid'), email_hint: z.string() })
  .openapi('OtpSent');

export const ZConfirmBodySchema = z.object({
  code: z.union([z.string(), z.number()]).optional().transform((v) => (v === undefined ? undefined : String(v).trim())).describe('The 6-digit code'),
  declaration_accepted: ZFlag.describe('Must be true'),
  firma_imagen_b64: z.string().max(800_000).optional().describe('Optional handwritten signature: PNG, base64 (data: URL prefix allowed), at most 512 KiB'),
});

export const ZConfirmedSchema = z
  .object({
    request_id: z.uuid(),
    status: z.literal('signed'),
    signed_at: z.iso.datetime(),
    signature: ZSignatureSchema.nullable(),
    redirect_url: z.string().nullable(),
  })
  .openapi('Confirmed');
