/**
 * The `postgres` storage backend's tables (defined once in service-kit): with
 * `WILDFIRE_STORAGE=postgres` the service's files live in its own database.
 */
export { blobs, blobChunks } from '@firma-riesgo/service-kit';
