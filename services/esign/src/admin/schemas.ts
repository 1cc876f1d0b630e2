import { z } from 'zod';
import { ZDocumentSchema } from '../documents/schemas';
import { ZSigningRequestStatusSchema } from '../signing-requests/schemas';

export const ZAdminTenantSchema = z
  .object({
    tenant: z.string(),
    documents: z.number().int(),
    documents_pending: z.number().int(),
    documents_signed: z.number().int(),
    requests: z.number().int(),
    signatures: z.number().int(),
    storage_bytes: z.number().int().describe('Bytes of the originals not erased'),
    created_at: z.iso.datetime().describe('First upload'),
    last_activity_at: z.iso.datetime().describe('Latest upload, request or signature'),
  })
  .openapi('AdminTenant');

export const ZAdminDocumentsQuerySchema = z.object({
  tenant: z.string().max(63).optional(),
  status: z.enum(['all', 'signed', 'pending']).default('all').describe('`all` (default), `signed` or `pending` (interface §4.5)'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ZAdminAuditQuerySchema = z.object({
  format: z.enum(['json', 'pdf']).default('json').describe('`pdf`: the same trail as a PDF sealed with the service certificate'),
});

export const ZAdminDocumentParamsSchema = z.object({ document_id: z.string().max(64) });
export const ZTenantParamsSchema = z.object({ tenant: z.string().min(1).max(63) });

export const ZAdminAuditSchema = z
  .object({
    document: ZDocumentSchema,
    requests: z.array(
      ZSigningRequestStatusSchema.extend({
        events: z.array(
          z.object({
            kind: z.string(),
            occurred_at: z.iso.datetime(),
            ip: z.string().nullable(),
            user_agent: z.string().nullable(),
            email: z.string().nullable(),
            document_sha256: z.string(),
            details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullable(),
          }),
        ),
      }),
    ),
    document_events: z.array(z.object({ kind: z.string(), occurred_at: z.iso.datetime(), details: z.record(z.string(), z.unknown()).nullable() })).describe('Events of the document itself (finalised, erased)'),
  })
  .openapi('AdminDocumentAudit');

export const ZAdminStatsSchema = z
  .object({
    tenants: z.number().int(),
    documents: z.record(z.string(), z.number().int()).describe('By status'),
    requests: z.record(z.string(), z.number().int()).describe('By status (a pending request past its expiry counts as expired)'),
    signatures: z.number().int(),
    signatures_last: z.object({ '24h': z.number().int(), '7d': z.number().int(), '30d': z.number().int() }),
    median_seconds_to_sign: z.number().int().nullable().describe('From request creation to signature'),
    otp_failure_rate: z.number().nullable().describe('Wrong codes / (wrong + verified codes)'),
    webhook_success_rate: z.number().nullable().describe('Succeeded / (succeeded + exhausted) deliveries'),
    storage_bytes: z.number().int(),
    queues: z
      .record(z.string(), z.object({ waiting: z.number().int(), delayed: z.number().int(), active: z.number().int(), failed: z.number().int() }))
      .describe('Per job queue (`esign`, `esign-webhooks`): jobs waiting, delayed (retries included), running, and failed for good'),
  })
  .openapi('AdminStats');

export const ZTenantErasureSchema = z.object({ tenant: z.string(), deleted_documents: z.number().int() }).openapi('TenantErasure');

const DAY = z.iso.date().describe('YYYY-MM-DD, in METERING_TIMEZONE (UTC by default)');
export const ZMeteringRangeSchema = z.object({ from_date: DAY.optional(), to_date: DAY.optional() });
export const ZMeteringDailyRangeSchema = z.object({ from_date: DAY, to_date: DAY });

const counters = {
  documents_uploaded: z.number().int(),
  requests_created: z.number().int(),
  emails_sent: z.number().int(),
  otps_sent: z.number().int(),
  signatures_completed: z.number().int(),
  documents_completed: z.number().int(),
  documents_erased: z.number().int(),
  tool_calls: z.number().int().describe('PDF tool calls with this tenant\'s key (calls without a key count under `anonymous`)'),
  webhook_deliveries: z.number().int().describe('Delivery attempts'),
  storage_bytes: z.number().int().describe('Bytes of originals stored at the end of the range (or of the day)'),
};
export const ZMeteringSchema = z
  .object({ tenant: z.string(), from_date: z.string().nullable(), to_date: z.string().nullable(), ...counters })
  .openapi('TenantMetering');
export const ZMeteringDaySchema = z.object({ date: z.string(), ...counters }).openapi('TenantMeteringDay');
