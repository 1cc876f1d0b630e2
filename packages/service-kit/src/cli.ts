// `@firma-riesgo/service-kit/cli`: the command-line frame alone, what a CLI loads before it
// knows its command. The package's index also loads the database, Redis and HTTP layers,
// which a CLI needs only once a command opens its runtime.
export * from './cli-frame';
export * from './cli-output';
export { createLogger } from './logger';
export { storageCommands, type StorageCliOptions } from './storage/storage-cli';
