import { z } from 'zod';
import { DANGER_CLASS_CODES } from '../decision-support/danger-classes';
import { ZMunicipioIdParamSchema } from '../municipalities/schemas';

/** The classes a subscription may ask to be told about: high and above. */
export const ALERT_MIN_CLASSES = ['high', 'very_high', 'extreme'] as const;
export type AlertMinClass = (typeof ALERT_MIN_CLASSES)[number];

/** Municipalities one `target.municipios` list may name. */
export const MAX_TARGET_MUNICIPIOS = 500;

export const ZAlertTargetSchema = z
  .union([
    z.strictObject({ municipios: z.array(ZMunicipioIdParamSchema).min(1).max(MAX_TARGET_MUNICIPIOS) }),
    z.strictObject({ province: z.string().regex(/^(0[1-9]|[1-4]\d|5[0-2])$/, 'expected an INE province code, 01 to 52') }),
    z.strictObject({ community: z.string().regex(/^(0[1-9]|1\d)$/, 'expected an INE community code, 01 to 19') }),
  ])
  .openapi('AlertTarget', {
    description: 'Exactly one of: a list of INE municipality codes (up to 500), an INE province code, or an INE community code.',
    example: { province: '41' },
  });

export const ZCreateAlertSchema = z
  .strictObject({
    target: ZAlertTargetSchema,
    min_class: z.enum(ALERT_MIN_CLASSES).describe('The EFFIS danger class from which an alert is raised.'),
    include_forecast: z.boolean().default(false).describe('Also raise alerts for the forecast days (D+1…D+6) of each forecast import.'),
    webhook_url: z
      .string()
      .max(2048)
      .url()
      .optional()
      .describe('Where alerts are POSTed, signed per Standard Webhooks. Without it the alerts are only in the CAP feed. Public https addresses only (the outbound guard).'),
  })
  .openapi('CreateAlertSubscription', {
    example: { target: { province: '41' }, min_class: 'very_high', include_forecast: false, webhook_url: 'https://cecop.example.org/hooks/wildfire' },
  });
export type TCreateAlert = z.infer<typeof ZCreateAlertSchema>;

const subscriptionFields = {
  subscription_id: z.uuid(),
  target: ZAlertTargetSchema,
  /** How many municipalities the target covers, within the token's municipality list. */
  municipalities: z.number().int().describe('Municipalities the subscription covers (the target, within the creating token’s municipality list).'),
  min_class: z.enum(ALERT_MIN_CLASSES),
  include_forecast: z.boolean(),
  webhook_url: z.string().nullable(),
  active: z
    .boolean()
    .describe(
      'Whether alerts are raised for it now: false while the token that made it (followed through its rotations) is revoked, expired or lacks `risk:read`. ' +
        'Alerts are always bounded by that token’s municipality list as it is when they are raised.',
    ),
  webhook_disabled_at: z
    .string()
    .nullable()
    .describe('ISO 8601: when the service stopped sending to the webhook (the receiver answered 410 Gone, or a delivery failed every attempt of the retry schedule). Null while it is sent to. Rotating the secret re-enables it.'),
  webhook_disabled_reason: z.string().nullable().describe('Why the service disabled the webhook; null while it is enabled.'),
  created_at: z.string().describe('ISO 8601.'),
};

const SUBSCRIPTION_EXAMPLE = {
  subscription_id: '0b7f5c7e-3f7a-4b8e-9a43-0e5f0d1f5a10',
  target: { province: '41' },
  municipalities: 106,
  min_class: 'very_high',
  include_forecast: false,
  webhook_url: 'https://cecop.example.org/hooks/wildfire',
  active: true,
  webhook_disabled_at: null,
  webhook_disabled_reason: null,
  created_at: '2025-07-20T08:00:00.000Z',
} as const;

export const ZAlertSubscriptionSchema = z.object(subscriptionFields).openapi('AlertSubscription', { example: SUBSCRIPTION_EXAMPLE });
export type TAlertSubscription = z.infer<typeof ZAlertSubscriptionSchema>;

export const ZCreatedAlertSchema = ZAlertSubscriptionSchema.extend({
  webhook_secret: z.string().optional().describe('The signing secret (`whsec_…`), shown only in this answer; present when `webhook_url` is set.'),
}).openapi('CreatedAlertSubscription', {
  example: {
    ...SUBSCRIPTION_EXAMPLE,
    webhook_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  },
});
export type TCreatedAlert = z.infer<typeof ZCreatedAlertSchema>;

export const ZAlertSubscriptionListSchema = z.object({ data: z.array(ZAlertSubscriptionSchema) }).openapi('AlertSubscriptionList', {
  example: {
    data: [
      {
        subscription_id: '0b7f5c7e-3f7a-4b8e-9a43-0e5f0d1f5a10',
        target: { municipios: ['41091'] },
        municipalities: 1,
        min_class: 'high',
        include_forecast: true,
        webhook_url: 'https://ayto.example.org/hooks/incendios',
        active: true,
        webhook_disabled_at: '2025-07-23T09:15:00.000Z',
        webhook_disabled_reason: 'The receiver answered 410 Gone',
        created_at: '2025-07-20T08:00:00.000Z',
      },
    ],
  },
});

export const ZRotatedAlertSecretSchema = z
  .object({
    subscription_id: z.uuid(),
    webhook_secret: z.string().describe('The new signing secret (`whsec_…`), shown only in this answer.'),
    previous_secret_expires_at: z.string().describe('Until then (24 hours) messages carry a signature with the previous secret too (ISO 8601).'),
  })
  .openapi('RotatedAlertSecret', {
    example: { subscription_id: '0b7f5c7e-3f7a-4b8e-9a43-0e5f0d1f5a10', webhook_secret: 'whsec_Yq3nR0vX2Lk9TtZbQ1eWcF8hJm4sPdA7', previous_secret_expires_at: '2025-07-21T08:00:00.000Z' },
  });
export type TRotatedAlertSecret = z.infer<typeof ZRotatedAlertSecretSchema>;

export const ZAlertParamsSchema = z.object({ subscription_id: z.uuid() });

export const DANGER_CLASS_RANK: Record<(typeof DANGER_CLASS_CODES)[number], number> = Object.fromEntries(DANGER_CLASS_CODES.map((c, i) => [c, i])) as Record<(typeof DANGER_CLASS_CODES)[number], number>;

export const ZAlertFeedQuerySchema = z.object({
  lang: z.enum(['es', 'en']).default('es').describe('`en` adds an English `<info>` to each CAP message (Spanish is always there).'),
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('How many of the newest alerts the feed carries (1–200, default 50).'),
});

export const ZAlertDeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('How many of the newest deliveries (1–200, default 50).'),
});

const ZAlertAttemptSchema = z.object({
  attempted_at: z.string(),
  status_code: z.number().int().nullable().describe('The receiver’s HTTP status; null when none came back.'),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

export const ZAlertDeliveryListSchema = z
  .object({
    data: z.array(
      z.object({
        delivery_id: z.uuid(),
        alert_id: z.uuid(),
        municipio_id: z.string(),
        date: z.string(),
        danger_class: z.string(),
        status: z.enum(['pending', 'failed', 'succeeded', 'exhausted']).describe('failed: retried at `next_attempt_at`; exhausted: the schedule is spent or the receiver answered 410.'),
        attempts: z.number().int(),
        next_attempt_at: z.string().nullable(),
        webhook_id: z.string().describe('The `webhook-id` header of every attempt of this delivery.'),
        log: z.array(ZAlertAttemptSchema),
      }),
    ),
  })
  .openapi('AlertDeliveryList', {
    example: {
      data: [
        {
          delivery_id: '5a0c3b2e-1d4f-4e8a-9b7c-6d5e4f3a2b1c',
          alert_id: 'd6087057-8f4c-45a4-938d-5bdf6e64054f',
          municipio_id: '41091',
          date: '2025-07-19',
          danger_class: 'very_high',
          status: 'succeeded',
          attempts: 2,
          next_attempt_at: null,
          webhook_id: 'msg_5a0c3b2e-1d4f-4e8a-9b7c-6d5e4f3a2b1c',
          log: [
            { attempted_at: '2025-07-19T12:00:01.000Z', status_code: 503, error: 'HTTP 503', duration_ms: 84 },
            { attempted_at: '2025-07-19T12:00:06.000Z', status_code: 204, error: null, duration_ms: 41 },
          ],
        },
      ],
    },
  });
export type TAlertDeliveryList = z.infer<typeof ZAlertDeliveryListSchema>;
