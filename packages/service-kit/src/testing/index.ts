// Test support, imported as `@firma-riesgo/service-kit/testing`; never used by production code.
export * from './test-database';
export * from './helpers';
export * from './probes';
export * from './s3-server';
export * from './service-processes';
export * from './openapi-lint';
