import { z } from 'zod';
import { ConfigError, env } from '../config';
import { STORAGE_KINDS, type BlobStore, type StorageKind } from './blob-store';

export { STORAGE_KINDS };
import { createFileStore } from './file-store';
import { createPostgresBlobStore } from './postgres-blob-store';
import { createS3BlobStore, type S3Settings } from './s3-blob-store';


/** A service's `<SERVICE>_STORAGE` variable: local (the default), postgres or s3. */
export const storageKindEnv = () => z.enum(STORAGE_KINDS, { message: `expected one of ${STORAGE_KINDS.join(', ')}` }).default('local');

/** The S3_* variables every service shares; spread them into a service's schema. Read only with storage `s3`. */
export const s3Env = {
  S3_ENDPOINT: env.url(['http', 'https']).optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: env.bool(false),
  S3_SSE: z.enum(['AES256', 'aws:kms'], { message: 'expected AES256 or aws:kms' }).optional(),
  S3_SSE_KMS_KEY_ID: z.string().optional(),
};

export type StorageSettings = { kind: 'local' } | { kind: 'postgres' } | { kind: 's3'; s3: S3Settings };

/**
 * Reads the storage choice; with `s3` every setting it needs must be present, otherwise
 * a ConfigError naming each missing variable stops the start (exit 2).
 */
export function storageSettings(
  kind: StorageKind,
  e: {
    S3_ENDPOINT?: string;
    S3_BUCKET?: string;
    S3_REGION?: string;
    S3_ACCESS_KEY_ID?: string;
    S3_SECRET_ACCESS_KEY?: string;
    S3_FORCE_PATH_STYLE: boolean;
    S3_SSE?: 'AES256' | 'aws:kms';
    S3_SSE_KMS_KEY_ID?: string;
  },
  variable: string,
): StorageSettings {
  if (kind !== 's3') return { kind };
  const problems: string[] = [];
  if (!e.S3_BUCKET) problems.push(`S3_BUCKET: required when ${variable}=s3`);
  if (!e.S3_REGION) problems.push(`S3_REGION: required when ${variable}=s3 (any name, e.g. us-east-1, for MinIO)`);
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push(`${e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'}: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together (or neither, for the AWS default credentials)`);
  }
  if (e.S3_SSE_KMS_KEY_ID && e.S3_SSE !== 'aws:kms') problems.push('S3_SSE_KMS_KEY_ID: only used with S3_SSE=aws:kms');
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    kind: 's3',
    s3: {
      endpoint: e.S3_ENDPOINT,
      bucket: e.S3_BUCKET!,
      region: e.S3_REGION!,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      sse: e.S3_SSE,
      sseKmsKeyId: e.S3_SSE_KMS_KEY_ID,
    },
  };
}

/** Builds the configured blob store of a service. */
export function createBlobStore(
  settings: StorageSettings,
  deps: {
    /** The service's name: the S3 key prefix. */
    service: string;
    /** The `local` backend's folder (DATA_DIR/<service>/files). */
    localRoot: string;
    /** The service's database, for the `postgres` backend. */
    database: { pool: Parameters<typeof createPostgresBlobStore>[0]['pool']; description: string };
  },
): BlobStore {
  switch (settings.kind) {
    case 'local':
      return createFileStore(deps.localRoot);
    case 'postgres':
      return createPostgresBlobStore({ pool: deps.database.pool, description: deps.database.description });
    case 's3':
      return createS3BlobStore({ settings: settings.s3, prefix: deps.service });
  }
}
