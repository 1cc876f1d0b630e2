import { z } from 'zod';
import { ZDocumentStatus } from '../documents/schemas';

/**
 * Any string: the route answers 404 for a malformed id as for an unknown one, so the public
 * page never tells a typo from a document that does not exist.
 */
export const ZVerificationParamsSchema = z.object({ document_id: z.string().describe('The document id printed on the audit certificate') });

export const ZVerificationQuerySchema = z.object({
  lang: z.enum(['es', 'en']).optional().describe('Language of the HTML page (Spanish by default, or from Accept-Language)'),
});

const ZLevel = z.enum(['B-B', 'B-T']);

export const ZVerifiedSignatureSchema = z
  .object({
    status: z.enum(['pending', 'signed', 'expired', 'cancelled']),
    signed_at: z.iso.datetime().nullable(),
    signee_email_masked: z.string().describe('The signee\'s address masked (`a***@e***.com`): the only personal data shown'),
    level: ZLevel.nullable().describe('PAdES level of the signee\'s sealed copy; null until sealed'),
    tsa_time: z.iso.datetime().nullable().describe('Time in the RFC 3161 signature timestamp (B-T)'),
  })
  .openapi('VerifiedSignature');

export const ZVerificationSchema = z
  .object({
    document_id: z.uuid(),
    status: ZDocumentStatus,
    sha256: z.string().describe('SHA-256 (hex) of the uploaded original'),
    final_sha256: z.string().nullable().describe('SHA-256 of the combined final PDF, once built'),
    finalised_at: z.iso.datetime().nullable(),
    final_signature: z.object({ level: ZLevel, tsa_time: z.iso.datetime().nullable() }).nullable(),
    signatures: z.array(ZVerifiedSignatureSchema).describe('One item per signing request, in request order'),
  })
  .openapi('Verification');
export type TVerification = z.infer<typeof ZVerificationSchema>;

/** The error envelope plus the hashes, which survive erasure so a copy can still be checked. */
export const ZErasedVerificationSchema = z
  .object({
    detail: z.string(),
    code: z.literal('DOCUMENT_ERASED'),
    request_id: z.string(),
    document_id: z.uuid(),
    status: z.literal('erased'),
    sha256: z.string(),
    final_sha256: z.string().nullable(),
    erased_at: z.iso.datetime(),
  })
  .openapi('ErasedVerification');
