export { DEFAULT_BASE_URL, ESIGN_ENDPOINTS, EsignClient, type EsignClientOptions, type EsignEndpoint } from './client';
export { EsignApiError, EsignNetworkError, type ValidationIssue } from './errors';
export { backoffMs, MAX_ATTEMPTS, MAX_DELAY_MS, RETRY_STATUSES } from './retry';
export { verifyWebhook, WebhookVerificationError } from './webhooks';
export type * from './types';
export type { components, operations, paths, webhooks } from './generated/esign-api';
