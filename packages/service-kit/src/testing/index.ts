// Test support, imported as `@platform/service-kit/testing`; never used by production code.
export * from './test-database';
export * from './helpers';
