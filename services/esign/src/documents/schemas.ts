import { z } from 'zod';
import { DOCUMENT_STATUSES } from './repository';

export const ZDocumentStatus = z.enum(DOCUMENT_STATUSES).describe(
  'draft: no request; pending: a request can still be signed; signed: every request signed; expired: none pending, some expired unsigned; erased: deleted',
);

export const ZDocumentSchema = z
  .object({
    document_id: z.uuid(),
    tenant: z.string(),
    filename: z.string(),
    title: z.string().nullable(),
    pages: z.number().int(),
    size_bytes: z.number().int(),
    sha256: z.string().describe('SHA-256 (hex) of the uploaded bytes: the document\'s identity'),
    status: ZDocumentStatus,
    created_at: z.iso.datetime(),
    final_sha256: z.string().nullable().describe('SHA-256 of the combined final PDF, once built'),
    finalised_at: z.iso.datetime().nullable(),
    final_signature: z.object({ level: z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']), tsa_time: z.iso.datetime().nullable() }).nullable(),
    erased_at: z.iso.datetime().nullable(),
  })
  .openapi('Document', {
    example: {
      document_id: '3f2b8c1e-9a4d-4e6f-8b2a-1c5d7e9f0a3b',
      tenant: 'ayto-sevilla',
      filename: 'contrato.pdf',
      title: 'Contrato de servicios 2026',
      pages: 3,
      size_bytes: 48213,
      sha256: '9b74c9897bac770ffc029102a200c5de5f2ae0f3a8a1e0b2a4c6f1e9d8b7a6c5',
      status: 'pending',
      created_at: '2026-05-04T09:12:03.000Z',
      final_sha256: null,
      finalised_at: null,
      final_signature: null,
      erased_at: null,
    },
  });
export type TDocument = z.infer<typeof ZDocumentSchema>;

export const ZUploadFormSchema = z.object({
  file: z.any().optional().openapi({ type: 'string', format: 'binary', description: 'The PDF (required)' }),
  title: z.string().trim().min(1).max(300).optional(),
});

export const ZDocumentParamsSchema = z.object({ document_id: z.uuid() });

/** Interface §4.1: `all` (default), `signed`, `pending`; the other document statuses are an extension. */
export const ZMyDocumentsQuerySchema = z.object({
  status: z
    .enum(['all', ...DOCUMENT_STATUSES])
    .default('all')
    .transform((v) => (v === 'all' ? undefined : v))
    .describe('`all` (default), `signed` or `pending`; also `draft`, `expired`, `erased`'),
  page: z.coerce.number().int().min(1).default(1),
});

export const ZErasureSchema = z
  .object({
    document_id: z.uuid(),
    erased: z.literal(true),
    requests_anonymised: z.number().int(),
    events_anonymised: z.number().int(),
  })
  .openapi('Erasure');
