import { join } from 'node:path';
import { createBlobStore, type BlobStore, type Database } from '@firma-riesgo/service-kit';
import type { WildfireConfig } from '../config';

/**
 * The store WILDFIRE_STORAGE chooses for the report files: DATA_DIR/wildfire/files (API and
 * worker processes must share that folder), the `blobs` tables of wildfire's database, or
 * `wildfire/` in the S3 bucket. The CLI's `storage migrate` builds its target with another
 * `storage` (as esign's createServiceFileStore does).
 */
export function createServiceFileStore(
  config: Pick<WildfireConfig, 'storage' | 'dataDir'>,
  database: Pick<Database<Record<string, unknown>>, 'pool' | 'description'>,
): BlobStore {
  return createBlobStore(config.storage, { service: 'wildfire', localRoot: join(config.dataDir, 'wildfire', 'files'), database });
}
