/** Every event a webhook can subscribe to (README "Receiving webhooks"). */
export const WEBHOOK_EVENT_TYPES = [
  'request_created',
  'document_viewed',
  'document_signed',
  'document_completed',
  'request_expired',
  'request_cancelled',
  'document_erased',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
