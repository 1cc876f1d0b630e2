import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './event-types';

export const ZWebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);

const ZEvents = z
  .array(ZWebhookEventType, { error: `each event must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` })
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((events) => [...new Set(events)]);

export const ZCreateWebhookSchema = z.object({
  url: z.string().max(2000).describe('https URL (http only with WEBHOOK_ALLOW_HTTP or outside production); public addresses only unless WEBHOOK_ALLOW_PRIVATE'),
  events: ZEvents.optional().describe('Event types to receive; omitted means all'),
  description: z.string().trim().max(500).optional(),
}).openapi({ example: { url: 'https://erp.example.org/hooks/firma', events: ['document_signed', 'document_completed'], description: 'ERP' } });

export const ZUpdateWebhookSchema = z
  .object({
    url: z.string().max(2000).optional(),
    events: ZEvents.nullable().optional().describe('null: every event type'),
    description: z.string().trim().max(500).nullable().optional(),
    active: z.boolean().optional().describe('true re-enables an endpoint the service disabled'),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Nothing to change' });

export const ZWebhookParamsSchema = z.object({ webhook_id: z.uuid() });
export const ZDeliveryParamsSchema = z.object({ webhook_id: z.uuid(), delivery_id: z.uuid() });
export const ZDeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ZWebhookSchema = z
  .object({
    webhook_id: z.uuid(),
    url: z.string(),
    events: z.array(ZWebhookEventType).describe('The types it receives (all of them when created without a list)'),
    description: z.string().nullable(),
    active: z.boolean(),
    disabled_reason: z.string().nullable().describe('Why the service disabled it (HTTP 410, or 5 days of failures)'),
    created_at: z.iso.datetime(),
  })
  .openapi('Webhook');
export type TWebhook = z.infer<typeof ZWebhookSchema>;

export const ZCreatedWebhookSchema = ZWebhookSchema.extend({
  secret: z.string().describe('`whsec_` + base64 of 24 random bytes: the signing secret, shown only here'),
}).openapi('CreatedWebhook', {
  example: {
    webhook_id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    url: 'https://erp.example.org/hooks/firma',
    events: ['document_signed', 'document_completed'],
    description: 'ERP',
    active: true,
    disabled_reason: null,
    created_at: '2026-05-04T09:00:00.000Z',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  },
});

export const ZWebhookTestSchema = z
  .object({
    status_code: z.number().int().nullable().describe("The receiver's HTTP status; null when it could not be reached"),
    ok: z.boolean().describe('Whether it answered 2xx'),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
  })
  .openapi('WebhookTestResult');

export const ZRotatedSecretSchema = z
  .object({ secret: z.string().describe('The new secret; the previous one keeps signing too for 24 hours') })
  .openapi('RotatedWebhookSecret');

export const ZDeliverySchema = z
  .object({
    delivery_id: z.uuid(),
    event_id: z.uuid().describe('The event; `webhook-id` is `msg_` + delivery_id'),
    type: ZWebhookEventType,
    status: z.enum(['pending', 'succeeded', 'failed', 'exhausted']).describe('failed: retrying after a failure; exhausted: the schedule is spent'),
    attempts: z.array(z.object({ attempted_at: z.iso.datetime(), status_code: z.number().int().nullable(), error: z.string().nullable(), duration_ms: z.number().int() })),
    next_attempt_at: z.iso.datetime().nullable(),
  })
  .openapi('WebhookDelivery');

export const ZDeliveriesPageSchema = z
  .object({ items: z.array(ZDeliverySchema), total: z.number().int(), limit: z.number().int(), offset: z.number().int() })
  .openapi('WebhookDeliveries');

/** Every event's `data`, for the OpenAPI document's `webhooks` section. */
const base = { document_id: z.uuid(), tenant: z.string() };
export const EVENT_DATA_SCHEMAS = {
  request_created: z.object({ ...base, request_id: z.uuid(), signee_email: z.string(), expires_at: z.iso.datetime() }),
  document_viewed: z.object({
    ...base,
    request_id: z.uuid(),
    signee_email: z.string(),
    viewed_at: z.iso.datetime(),
    via: z.enum(['pdf', 'pages']).describe('The PDF was fetched, or the page images the signing page shows'),
  }),
  document_signed: z.object({
    ...base,
    request_id: z.uuid(),
    signee_email: z.string(),
    signed_at: z.iso.datetime(),
    signature_level: z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']).describe('The PAdES level the seal is applied at'),
    document_sha256: z.string(),
  }),
  document_completed: z.object({ ...base, completed_at: z.iso.datetime(), document_sha256: z.string(), final_sha256: z.string(), signature_level: z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']) }),
  request_expired: z.object({ ...base, request_id: z.uuid(), expired_at: z.iso.datetime() }),
  request_cancelled: z.object({ ...base, request_id: z.uuid(), cancelled_at: z.iso.datetime(), reason: z.string().describe('document_erased; additions: declined (another signee declined), voided (the tenant voided it)') }),
  document_erased: z.object({ ...base, erased_at: z.iso.datetime() }),
  request_ready: z.object({
    ...base,
    request_id: z.uuid(),
    signee_email: z.string(),
    order: z.number().int().describe('The request\'s signing order'),
    role: z.enum(['signer', 'approver']),
    ready_at: z.iso.datetime().describe('When every lower order was done and the link was emailed'),
  }),
  request_declined: z.object({ ...base, request_id: z.uuid(), signee_email: z.string(), declined_at: z.iso.datetime(), reason: z.string().describe('The signee\'s reason, 1-500 characters') }),
  request_approved: z.object({ ...base, request_id: z.uuid(), signee_email: z.string(), approved_at: z.iso.datetime() }),
} as const;
