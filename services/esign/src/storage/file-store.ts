import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createBlobStore, type BlobStore, type Database } from '@firma-riesgo/service-kit';
import type { EsignConfig } from '../config';

/** esign's files: a blob store of service-kit (local files, Postgres or S3, by ESIGN_STORAGE). */
export type FileStore = BlobStore;

/** The store ESIGN_STORAGE chooses: DATA_DIR/esign/files, the `blobs` tables of esign's database, or `esign/` in the S3 bucket. */
export function createServiceFileStore(config: Pick<EsignConfig, 'storage' | 'dataDir'>, database: Pick<Database<Record<string, unknown>>, 'pool' | 'description'>): FileStore {
  return createBlobStore(config.storage, {
    service: 'esign',
    localRoot: join(config.dataDir, 'esign', 'files'),
    database,
  });
}

/** Where each file of a document lives. */
export const storageKeys = {
  documentDir: (documentId: string) => `documents/${documentId}`,
  original: (documentId: string) => `documents/${documentId}/original.pdf`,
  signed: (documentId: string, requestId: string) => `documents/${documentId}/requests/${requestId}.signed.pdf`,
  signatureImage: (documentId: string, requestId: string) => `documents/${documentId}/requests/${requestId}.${randomBytes(4).toString('hex')}.png`,
  initialsImage: (documentId: string, requestId: string) => `documents/${documentId}/requests/${requestId}.initials.${randomBytes(4).toString('hex')}.png`,
  final: (documentId: string) => `documents/${documentId}/final.pdf`,
  /** A rendering of page `n` at `width` pixels for the signing page (a cache: erased with the document). */
  pageImage: (documentId: string, n: number, width: number) => `documents/${documentId}/pages/${n}-${width}.png`,
  /** The text of the pages for the signing page (a cache: erased with the document). */
  pageText: (documentId: string) => `documents/${documentId}/pages/text.json`,
};
