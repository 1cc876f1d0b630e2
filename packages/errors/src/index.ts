export * from './app-error';
export * from './catalogue';
export * from './validation-error';
export * from './error-handler';
export * from './envelopes';
export * from './request-id';
export * from './log-safe-error';
