export { DEFAULT_BASE_URL, WILDFIRE_ENDPOINTS, WildfireClient, type WildfireClientOptions, type WildfireEndpoint } from './client';
export { WildfireApiError, WildfireNetworkError } from './errors';
export { backoffMs, MAX_ATTEMPTS, MAX_DELAY_MS, RETRY_STATUSES } from './retry';
export type * from './types';
