// The webhook delivery core both services use: Standard Webhooks signing with secret
// rotation, sealed secrets, the guarded HTTP attempt, and the retry schedule.
export * from './secrets';
export * from './http-delivery';
export * from './schedule';
export * from './keyed-limiter';
export * from './signed-message';
export * from './attempt-result';
