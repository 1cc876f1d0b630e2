import { SIGNEE_LOCALES } from './email-strings';
import { z } from 'zod';
import { ZFieldsSchema, ZPlacedFieldSchema } from './field-schemas';
import { MAX_ORDER, REQUEST_ROLES, REQUEST_STATUSES } from './rules';

/** A reminder every N hours while a request is pending: 0 for none, otherwise at least 24 (at most 30 days). */
export const ZReminderEveryHours = z
  .number()
  .int()
  .refine((h) => h === 0 || (h >= 24 && h <= 720), 'must be 0 (no reminders) or 24 to 720 hours');

export const ZCreateSigningRequestSchema = z.object({
  document_id: z.uuid(),
  signee_email: z.email().max(254),
  signee_name: z.string().trim().min(1).max(200).optional(),
  message: z.string().trim().min(1).max(2000).optional(),
  expires_in_hours: z.number().int().min(1).max(24 * 90).default(168).describe('Hours the link stays valid (default 168 = 7 days, at most 90 days)'),
  redirect_url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe('Where the success page sends the signee on "Continue"'),
  locale: z.enum(SIGNEE_LOCALES).default('es').describe('Language of the emails and the signing page: es (default), en, ca (Catalan), gl (Galician), eu (Basque)'),
  order: z
    .number()
    .int()
    .min(1)
    .max(MAX_ORDER)
    .default(1)
    .describe('Signing order, 1-50 (default 1). Requests of one document with the same order run in parallel; a request waits (status `waiting`, no email) until every request of a lower order is signed or approved'),
  reminder_every_hours: ZReminderEveryHours.optional().describe(
    "A reminder email (with the same link) every N hours while the request is pending: 0 for none, otherwise 24-720; default the tenant's setting (72 unless changed in /firma/ajustes)",
  ),
  reminder_max: z.number().int().min(0).max(10).optional().describe("At most this many scheduled reminders; default the tenant's setting (3 unless changed); an expiry warning also goes 24 h before expires_at"),
  allow_reassign: z.boolean().default(false).describe('Whether the signee may hand the request on (POST /firma/firmar/{token}/reasignar); default false'),
  role: z
    .enum(REQUEST_ROLES)
    .default('signer')
    .describe('signer (default: signs, stamped on the PDF); approver (code and declaration, no image, no stamp: status `approved`); cc (no link, no action: receives the completion copy)'),
  fields: ZFieldsSchema.optional(),
}).openapi({
  example: { document_id: '3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b', signee_email: 'ana.garcia@example.org', signee_name: 'Ana García', expires_in_hours: 72, locale: 'es' },
});

export const ZCreatedSigningRequestSchema = z
  .object({
    request_id: z.uuid(),
    document_id: z.uuid(),
    status: z.enum(['pending', 'waiting']).describe('pending: the link is emailed now; waiting: a lower order is not done yet (or a cc), nothing is sent yet'),
    signing_url: z.url().nullable().describe('The personal link emailed to the signee (shown here once; stored only as a hash); null for a cc, which has no link'),
    order: z.number().int().describe('Signing order (addition)'),
    role: z.enum(REQUEST_ROLES).describe('Role (addition)'),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    fields: z.array(ZPlacedFieldSchema).optional().describe('Only when the request has fields: each with its name and where it landed (`resolved`), so anchors can be checked (addition)'),
  })
  .openapi('CreatedSigningRequest', {
    example: {
      request_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      document_id: '3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b',
      status: 'pending',
      signing_url: 'https://firma.example.org/firma/firmar/Yk3q9PZtQ0e7sV1mX2aBcD4fGhJ6kL8n',
      order: 1,
      role: 'signer',
      expires_at: '2026-05-07T09:13:10.000Z',
      created_at: '2026-05-04T09:13:10.000Z',
    },
  });

export const ZSignatureSchema = z
  .object({
    status: z.enum(['sealing', 'sealed', 'failed']).describe('sealing: signed, seal being applied (retried while the TSA fails); failed: given up after every retry'),
    level: z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']).nullable().describe('PAdES baseline level of the sealed copy; null until sealed'),
    tsa_time: z.iso.datetime().nullable().describe('Time in the RFC 3161 signature timestamp (B-T)'),
    signed_sha256: z.string().nullable().describe("SHA-256 of the signee's sealed copy"),
    sealed_at: z.iso.datetime().nullable(),
    error: z.string().nullable().describe('Last sealing error while retrying'),
  })
  .openapi('Signature');

export const ZSigningRequestStatusSchema = z
  .object({
    request_id: z.uuid(),
    document_id: z.uuid(),
    status: z
      .enum(REQUEST_STATUSES)
      .describe('pending, signed, expired, cancelled; additions: waiting (a lower order is not done yet; a cc until the end), approved (an approver\'s outcome)'),
    signee_email: z.string(),
    signee_name: z.string().nullable(),
    locale: z.enum(SIGNEE_LOCALES),
    redirect_url: z.string().nullable(),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
    viewed_at: z.iso.datetime().nullable(),
    signed_at: z.iso.datetime().nullable(),
    cancelled_at: z.iso.datetime().nullable(),
    otp_attempts_left: z.number().int().describe('Wrong codes left before the request locks (5 in all)'),
    locked: z.boolean().describe('Locked after five wrong codes; a new request is needed'),
    signature: ZSignatureSchema.nullable(),
    order: z.number().int().describe('Signing order, 1-50 (addition)'),
    role: z.enum(REQUEST_ROLES).describe('signer, approver or cc (addition)'),
    declined_at: z.iso.datetime().nullable().describe('When the signee declined (addition)'),
    decline_reason: z.string().nullable().describe("The signee's reason for declining (addition)"),
    reminders_sent: z.number().int().describe('Reminders sent so far, scheduled and manual (addition)'),
    next_reminder_at: z.iso.datetime().nullable().describe('When the next scheduled reminder goes, or null (addition)'),
    reassigned_from: z.string().nullable().describe('The previous signee\'s address, masked, after a reassignment (addition)'),
    reassign_reason: z.string().nullable().describe('The reason (`motivo`) given with the last reassignment, or null (addition; `[suprimido]` after erasure)'),
    waiting_for: z.number().int().describe('Requests of a lower order (every signer and approver, for a cc) not yet signed or approved (addition)'),
    fields: z.array(ZPlacedFieldSchema).optional().describe('Only when the request has fields: each with its name and where it landed (addition)'),
    field_values: z
      .record(z.string(), z.union([z.string(), z.boolean()]))
      .nullable()
      .optional()
      .describe('Only when the request has fields: what the signee filled in (text values, checkbox ticks) by field name; null until signed and after erasure (addition)'),
  })
  .openapi('SigningRequestStatus');

/** An example status record (served beside the status response; the admin audit extends the schema, so it is not the schema's own). */
export const SIGNING_REQUEST_STATUS_EXAMPLE: z.infer<typeof ZSigningRequestStatusSchema> = {
  request_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  document_id: '3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b',
  status: 'signed',
  signee_email: 'ana.garcia@example.org',
  signee_name: 'Ana García',
  locale: 'es',
  redirect_url: null,
  expires_at: '2026-05-07T09:13:10.000Z',
  created_at: '2026-05-04T09:13:10.000Z',
  viewed_at: '2026-05-04T10:02:41.000Z',
  signed_at: '2026-05-04T10:04:05.000Z',
  cancelled_at: null,
  otp_attempts_left: 5,
  locked: false,
  signature: { status: 'sealed', level: 'B-T', tsa_time: '2026-05-04T10:04:06.000Z', signed_sha256: '5d41402abc4b2a76b9719d911017c592ae0f3a8a1e0b2a4c6f1e9d8b7a6c5e4f', sealed_at: '2026-05-04T10:04:07.000Z', error: null },
  order: 1,
  role: 'signer',
  declined_at: null,
  decline_reason: null,
  reminders_sent: 0,
  next_reminder_at: null,
  reassigned_from: null,
  reassign_reason: null,
  waiting_for: 0,
};
export type TSigningRequestStatus = z.infer<typeof ZSigningRequestStatusSchema>;

export const ZDocumentRequestsSchema = z.array(ZSigningRequestStatusSchema).openapi('DocumentSigningRequests');

export const ZRequestParamsSchema = z.object({ request_id: z.uuid() });

export const ZVoidRequestSchema = z.object({
  motivo: z.string().trim().min(1).max(500).describe('Why the request is withdrawn, 1-500 characters: told to the signee by email and printed in the audit certificate'),
});

export const ZReassignBodySchema = z.object({
  signee_email: z.email().max(254).describe('The new signee'),
  signee_name: z.string().trim().min(1).max(200).optional(),
  motivo: z.string().trim().min(1).max(500).optional().describe('Why, 1-500 characters: kept on the request (`reassign_reason` in its status record, erased with the document); the trail records the two masked addresses, not the reason'),
});

export const ZReassignedSchema = z
  .object({
    request_id: z.uuid(),
    status: z.enum(['pending', 'waiting']),
    signing_url: z.url().nullable().describe('The new personal link (shown once, to the tenant only; null for a signee\'s reassignment: the new signee gets it by email)'),
    reassigned_from: z.string().describe('The previous address, masked'),
    reassign_reason: z.string().nullable().describe('The reason given (`motivo`), or null'),
    email_hint: z.string().describe('The new address, masked'),
    reassignments_left: z.number().int(),
  })
  .openapi('Reassigned');
