export * from './open-database';
export { pgliteLocation, currentHost } from './pglite-host';
export * from './run-if-unlocked';
