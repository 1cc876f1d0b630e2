import { REQUEST_STATUSES } from '../signing-requests/rules';
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

const ZLevel = z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']);

/** `POST /verificar`: the page's language and the time to judge the signatures at. */
export const ZFileVerificationQuerySchema = ZVerificationQuerySchema.extend({
  at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe(
      'Validation time (ISO 8601 date-time, e.g. `2031-05-04T09:00:00Z`): certificate expiry and revocation are judged at it, and only timestamps not after it count as proof of existence. Default: now',
    )
    .openapi({ example: '2031-05-04T09:00:00Z' }),
});

export const ZVerifiedSignatureSchema = z
  .object({
    status: z.enum(REQUEST_STATUSES),
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

/** `GET /verificar`: the search form, or with `document_id` a redirect to its page. */
export const ZVerificationSearchQuerySchema = z.object({
  // A repeated parameter counts by its first value: a malformed query shows the form, never a JSON error.
  document_id: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.string().optional()).describe('The document id printed on the audit certificate'),
  lang: z.enum(['es', 'en']).optional().describe('Language of the HTML page (Spanish by default, or from Accept-Language)'),
});

/** What the form's `at` may hold besides blank: a date-time with an offset, or without one (datetime-local). */
const FORM_DATE_TIMES = [z.iso.datetime({ offset: true }), z.iso.datetime({ local: true })];

export const ZFileVerificationBodySchema = z.object({
  file: z.string().openapi({ type: 'string', format: 'binary' }).describe('The signed PDF to check; never stored'),
  at: z
    .string()
    .max(40)
    .regex(/^$|^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/)
    .refine((v) => v === '' || FORM_DATE_TIMES.some((schema) => schema.safeParse(v).success), 'Not a valid date-time')
    .optional()
    .describe(
      'The validation time as the HTML form sends it: an ISO 8601 date-time, or one without an offset (`2031-05-04T09:00`, what `<input type="datetime-local">` sends), read as UTC; empty means now. The `at` query parameter wins when both are given',
    )
    .openapi({ example: '2031-05-04T09:00' }),
});

export const ZCertificateFactsSchema = z
  .object({
    subject: z.string(),
    issuer: z.string(),
    serial: z.string().describe('Hexadecimal'),
    not_before: z.iso.datetime(),
    not_after: z.iso.datetime(),
    self_signed: z.boolean(),
    issued_by_this_service: z.boolean().describe('The certificate is the one this service seals with'),
  })
  .openapi('CertificateFacts');

export const ZRevocationSchema = z
  .object({
    status: z.enum(['good', 'revoked', 'unknown']).describe('The signing (or TSA) certificate\'s status in the OCSP responses and CRLs at hand; a revoked answer wins'),
    source: z.enum(['dss', 'fetched']).nullable().describe('From the file\'s DSS, or fetched from the issuer during verification; null when unknown'),
    revoked_at: z.iso.datetime().nullable().describe('Revocation time, when revoked'),
    this_update: z.iso.datetime().nullable().describe('thisUpdate of the OCSP response or CRL used'),
  })
  .openapi('RevocationStatus', { example: { status: 'good', source: 'dss', revoked_at: null, this_update: '2026-05-04T09:00:02.000Z' } });

export const ZCertificateRevocationSchema = ZRevocationSchema.extend({
  status: z.enum(['good', 'revoked', 'unknown']).describe('This certificate\'s status in the OCSP responses and CRLs at hand; a revoked answer wins'),
  chain: z
    .enum(['signer', 'signature_timestamp'])
    .describe('Whose chain: `signer` the signature\'s own (for a document timestamp, its TSA\'s); `signature_timestamp` the TSA chain of the signature\'s timestamp'),
  depth: z.number().int().min(0).describe('0: the end-entity certificate (signer or TSA); 1: the CA that issued it; and so on up to, not including, the trust anchor'),
  subject: z.string(),
  serial: z.string().describe('Serial number (hex)'),
  sha256: z.string().describe('SHA-256 of the certificate (DER), hex'),
}).openapi('CertificateRevocation', {
  example: {
    chain: 'signer',
    depth: 1,
    subject: 'CN=Example Intermediate CA, O=Example',
    serial: '2000',
    sha256: 'a3f1c0de00000000000000000000000000000000000000000000000000000000',
    status: 'good',
    source: 'dss',
    revoked_at: null,
    this_update: '2026-05-04T09:00:02.000Z',
  },
});

export const ZSignatureCheckSchema = z
  .object({
    field: z.string().nullable().describe('The signature field name'),
    signer: z.string().nullable().describe('/Name of the signature, else the certificate common name'),
    signing_time: z.iso.datetime().nullable().describe('The /M time the signer claims'),
    timestamp_time: z.iso.datetime().nullable().describe('genTime of the RFC 3161 signature timestamp'),
    level: ZLevel.nullable(),
    integrity: z.boolean().describe('The digest over the byte ranges matches the signed messageDigest'),
    signature_valid: z.boolean().describe('The CMS signature verifies with the signer certificate'),
    covers_document: z.boolean().describe('The byte ranges cover the file up to the end of that revision, with one gap holding the /Contents'),
    ess_certificate_matches: z.boolean().describe('The ESS signing-certificate-v2 hash equals the signer certificate'),
    timestamp_valid: z.boolean().nullable().describe('The token imprint matches the signature value and the token signature verifies; null without a timestamp'),
    certificate: ZCertificateFactsSchema.nullable(),
    problems: z.array(z.string()).describe('A reason for every false'),
    kind: z.enum(['signature', 'document_timestamp']).describe('A signature, or a document timestamp (/SubFilter /ETSI.RFC3161, the archive timestamp of B-LTA)'),
    detected_level: ZLevel.nullable().describe(
      'The PAdES level the file reaches for this signature: B-B, B-T with a signature timestamp, B-LT with a later DSS holding validation data, B-LTA with a valid document timestamp over that DSS; null for a document timestamp. `level` stays the level the CMS alone shows',
    ),
    chain_trusted: z.boolean().describe('The signer certificate chains (through the certificates in the signature) to ESIGN_TRUST_ANCHORS, this service\'s local root or its seal certificate'),
    indication: z.enum(['TOTAL_PASSED', 'INDETERMINATE', 'TOTAL_FAILED']).describe('ETSI EN 319 102-1 indication at the validation time (`validation_time`)'),
    sub_indication: z
      .enum([
        'HASH_FAILURE',
        'SIG_CRYPTO_FAILURE',
        'FORMAT_FAILURE',
        'NO_SIGNING_CERTIFICATE_FOUND',
        'NO_CERTIFICATE_CHAIN_FOUND',
        'REVOKED',
        'REVOKED_NO_POE',
        'OUT_OF_BOUNDS_NO_POE',
        'NOT_YET_VALID',
      ])
      .nullable()
      .describe(
        'ETSI EN 319 102-1 sub-indication; null when TOTAL_PASSED. REVOKED: the certificate, or a CA certificate above it, was revoked before the proof of existence; REVOKED_NO_POE: revoked, and no timestamp proves the signature existed before (also a timestamped signature whose only timestamp came from a TSA certificate revoked at or before the timestamp\'s time); OUT_OF_BOUNDS_NO_POE: the certificate has expired at the validation time and nothing proves validation data from before its expiry (B-LTA does); NOT_YET_VALID: the validation time is before the certificate\'s validity',
      ),
    revocation: ZRevocationSchema,
    chain_revocation: z
      .array(ZCertificateRevocationSchema)
      .describe(
        'Revocation of every certificate that is not a trust anchor, of the signer\'s chain and of the signature timestamp\'s TSA chain, judged only for chains that reach a trust anchor (else empty). An intermediate CA revoked before the proof of existence gives REVOKED as a revoked signer does; a signature timestamp whose TSA chain was revoked at or before its time is no proof of existence',
      ),
    poe_time: z.iso
      .datetime()
      .nullable()
      .describe('The best proof of existence used: the earliest valid timestamp covering the signature (its signature timestamp, or a document timestamp) not after the validation time; null without one'),
  })
  .openapi('SignatureCheck');

export const ZFileVerificationSchema = z
  .object({
    validation_time: z.iso.datetime().describe('The time the signatures were judged at: `?at=`, else now'),
    file_sha256: z.string(),
    valid: z.boolean().describe('At least one signature, every signature passes, and nothing was modified after the last one'),
    modified_after_last_signature: z.boolean(),
    signatures: z.array(ZSignatureCheckSchema).describe('One per signature field, in file order'),
    problems: z.array(z.string()).describe('Problems of the file as a whole'),
    known_document: z
      .object({
        document_id: z.uuid(),
        status: ZDocumentStatus,
        final_sha256_matches: z.boolean(),
        name: z.string().describe('The document\'s title, else its file name (the uploader holds the file itself)'),
      })
      .nullable()
      .describe('When the SHA-256 equals one of our stored signed or final PDFs'),
  })
  .openapi('FileVerification');
export type TFileVerification = z.infer<typeof ZFileVerificationSchema>;
export type TKnownDocument = NonNullable<TFileVerification['known_document']>;
