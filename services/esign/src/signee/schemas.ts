import { SIGNEE_LOCALES } from '../signing-requests/email-strings';
import { z } from 'zod';
import { ZSignatureSchema } from '../signing-requests/schemas';
import { FIELD_NAME } from '../signing-requests/field-schemas';

const TRUE_WORDS = new Set(['true', 'on', '1', 'yes']);
const FALSE_WORDS = new Set(['false', 'off', '0', 'no']);

/**
 * A boolean from a form (`true`/`false`, a checkbox's `on`; also `1`/`0`, `yes`/`no`, any
 * case) or a JSON boolean. Absent counts as false, so the declaration check names it.
 */
const ZFlag = z
  .preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const word = v.trim().toLowerCase();
      return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : v;
    },
    z.boolean({ error: 'must be true or false' }).optional(),
  )
  .transform((v) => v === true);

export const ZTokenParamsSchema = z.object({ token: z.string().min(20).max(128).regex(/^[A-Za-z0-9_-]+$/) });

export const ZPageImageParamsSchema = ZTokenParamsSchema.extend({ n: z.coerce.number().int().min(1).max(100_000).describe('Page number, from 1') });
export const ZPageImageQuerySchema = z.object({
  ancho: z.enum(['480', '960', '1440']).default('960').transform(Number).describe('Width in pixels: 480, 960 (default) or 1440'),
});

/** `?origen=`: the origin of the page framing the signing page (see "Embedding" in the README). */
const ZOrigen = z
  .string()
  .max(300)
  .optional()
  .describe("Extension: the origin of the tenant's page that frames this one (`https://app.example.com`); when it is one of the tenant's `embed_origins`, the page posts its `firma:*` events to it, and otherwise none");

/** The form posts of the signing page carry the framing page's origin on to the page they return to. */
export const ZEmbedQuerySchema = z.object({ origen: ZOrigen });

export const ZSigningPageQuerySchema = z.object({
  origen: ZOrigen,
  locale: z.enum(SIGNEE_LOCALES).optional().describe("Overrides the request's language (es, en, ca, gl, eu)"),
  aviso: z.string().max(40).optional().describe('Notice shown after a form post (fixed set of keys)'),
  error: z.string().max(40).optional().describe('Error code shown after a failed form post (fixed set of codes)'),
});

export const ZOtpBodySchema = z.object({
  declaration_accepted: ZFlag.describe('Must be true: the signee accepts the declaration'),
});

export const ZOtpSentSchema = z
  .object({ sent: z.literal(true), expires_in: z.number().int().describe('Seconds the code stays valid'), email_hint: z.string() })
  .openapi('OtpSent');

const ZCode = z.union([z.string(), z.number()]).optional().transform((v) => (v === undefined ? undefined : String(v).trim()));

/** Interface §4.1: `otp_code`, `declaration_accepted`, `firma_imagen_b64` (string or null). */
export const ZConfirmBodySchema = z.object({
  otp_code: ZCode.describe('The 6-digit code (required)'),
  code: ZCode.describe('Deprecated alias of `otp_code`, accepted for clients of 0.1; `otp_code` wins when both are sent'),
  declaration_accepted: ZFlag.describe('Must be true'),
  firma_imagen_b64: z
    .string()
    .max(800_000)
    .nullable()
    .optional()
    .describe('Optional handwritten signature: PNG, base64 (data: URL prefix allowed), at most 512 KiB and 2000×1000 pixels; empty or null means none'),
  firma_nombre: z
    .string()
    .trim()
    .max(100)
    .optional()
    .describe('Extension: the signee\'s name typed instead of drawn (at most 100 characters); set in an italic serif and stamped as the signature image. Ignored when `firma_imagen_b64` is sent; empty means none'),
  campos: z
    .record(z.string().regex(FIELD_NAME), z.union([z.string().max(1000), z.boolean()]))
    .optional()
    .describe('Extension (fields): the values of the request\'s text fields and checkboxes by field name; a form sends `campos[<name>]=…`, a checkbox `true` or `on`'),
  iniciales: z
    .string()
    .trim()
    .max(10)
    .optional()
    .describe('Extension (fields): the initials set in every `initials` field (at most 10 characters); default the initials of the name'),
  iniciales_imagen_b64: z
    .string()
    .max(800_000)
    .nullable()
    .optional()
    .describe('Extension (fields): initials drawn once, set in every `initials` field: PNG, base64 (data: URL prefix allowed), the limits of `firma_imagen_b64`; wins over `iniciales`; ignored for a request without initials fields; empty or null means none'),
});

export const ZConfirmedSchema = z
  .object({
    request_id: z.uuid(),
    status: z.enum(['signed', 'approved']).describe('approved (addition): an approver\'s confirmation'),
    signed_at: z.iso.datetime().describe('When it was signed (or approved)'),
    signature: ZSignatureSchema.nullable(),
    redirect_url: z.string().nullable(),
  })
  .openapi('Confirmed');
export type TConfirmed = z.infer<typeof ZConfirmedSchema>;

export const ZDeclineBodySchema = z.object({
  motivo: z.string().trim().min(1).max(500).describe('Why the signee declines, 1-500 characters: sent to the tenant (webhook `request_declined`) and printed in the audit certificate'),
});

export const ZDeclinedSchema = z
  .object({
    request_id: z.uuid(),
    status: z.literal('declined'),
    declined_at: z.iso.datetime(),
    cancelled: z.number().int().describe("The document's other open requests cancelled (their signees are told by email)"),
  })
  .openapi('Declined');
