/** Every event a webhook can subscribe to (README "Receiving webhooks"). */
export const WEBHOOK_EVENT_TYPES = [
  'request_created',
  'document_viewed',
  'document_signed',
  'document_completed',
  'request_expired',
  'request_cancelled',
  'document_erased',
  /** A waiting request's turn came (every lower order signed or approved): its link was emailed. */
  'request_ready',
  /** An approver approved. */
  'request_approved',
  /** A signee declined (with the reason); the document's other open requests are cancelled. */
  'request_declined',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
