import { SIGNEE_LOCALES } from './email-strings';
import { z } from 'zod';

export const ZCreateSigningRequestSchema = z.object({
  document_id: z.uuid(),
  signee_email: z.email().max(254),
  signee_name: z.string().trim().min(1).max(200).optional(),
  message: z.string().trim().min(1).max(2000).optional(),
  expires_in_hours: z.number().int().min(1).max(24 * 90).default(168).describe('Hours the link stays valid (default 168 = 7 days, at most 90 days)'),
  redirect_url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe('Where the success page sends the signee on "Continue"'),
  locale: z.enum(SIGNEE_LOCALES).default('es').describe('Language of the emails and the signing page: es (default), en, ca (Catalan), gl (Galician), eu (Basque)'),
}).openapi({
  example: { document_id: '3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b', signee_email: 'ana.garcia@example.org', signee_name: 'Ana García', expires_in_hours: 72, locale: 'es' },
});

export const ZCreatedSigningRequestSchema = z
  .object({
    request_id: z.uuid(),
    document_id: z.uuid(),
    status: z.literal('pending'),
    signing_url: z.url().describe('The personal link emailed to the signee (shown here once; stored only as a hash)'),
    expires_at: z.iso.datetime(),
    created_at: z.iso.datetime(),
  })
  .openapi('CreatedSigningRequest', {
    example: {
      request_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      document_id: '3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b',
      status: 'pending',
      signing_url: 'https://firma.example.org/firma/firmar/Yk3q9PZtQ0e7sV1mX2aBcD4fGhJ6kL8n',
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
    status: z.enum(['pending', 'signed', 'expired', 'cancelled']),
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
};
export type TSigningRequestStatus = z.infer<typeof ZSigningRequestStatusSchema>;

export const ZDocumentRequestsSchema = z.array(ZSigningRequestStatusSchema).openapi('DocumentSigningRequests');

export const ZRequestParamsSchema = z.object({ request_id: z.uuid() });
