import { Readable } from 'node:stream';
import type { ObjectIdentifier, S3Client, ServerSideEncryption } from '@aws-sdk/client-s3';
import { checkBlobKey, collectBlob, type BlobSource, type BlobStore } from './blob-store';

/** The S3_* variables, parsed (storage-config.ts). */
export interface S3Settings {
  /** Unset: AWS S3 itself; set for MinIO and other S3-compatible stores. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Both or neither: without them the AWS default chain applies (environment, profile, instance or pod role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `bucket` in the path instead of the host name (MinIO and most self-hosted stores need it). */
  forcePathStyle: boolean;
  /** Server-side encryption asked for on every write. */
  sse?: 'AES256' | 'aws:kms';
  /** The KMS key for `aws:kms`; unset, the bucket's default key. */
  sseKmsKeyId?: string;
}

export interface S3BlobStoreOptions {
  settings: S3Settings;
  /** Every key is stored under `<prefix>/` (the service's name), so services can share a bucket. */
  prefix: string;
  /** Multipart part size for large writes; at least 5 MiB (the S3 minimum). */
  partBytes?: number;
}

/** One DeleteObjects call takes at most 1,000 keys. */
const DELETE_BATCH = 1000;

/** A store that has no versioning at all (ListObjectVersions unknown to it): its current objects are all there is. */
const versioningUnsupported = (err: unknown) => {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotImplemented' || e?.name === 'MethodNotAllowed' || e?.$metadata?.httpStatusCode === 501 || e?.$metadata?.httpStatusCode === 405;
};

const isMissing = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

/** Blobs in an S3-compatible bucket; large writes go up as a multipart upload, aborted if the stream fails. */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore & { client: S3Client } {
  // The AWS SDK is loaded here, not when service-kit is: a process on local or postgres
  // storage, and every CLI start, does without it (about a tenth of a CLI's start-up).
  const {
    AbortMultipartUploadCommand,
    DeleteObjectCommand,
    DeleteObjectsCommand,
    GetObjectCommand,
    HeadObjectCommand,
    ListObjectVersionsCommand,
    ListObjectsV2Command,
    S3Client,
  } = require('@aws-sdk/client-s3') as typeof import('@aws-sdk/client-s3');
  const { Upload } = require('@aws-sdk/lib-storage') as typeof import('@aws-sdk/lib-storage');
  const { settings } = options;
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
    // Checksums only where S3 requires them: many S3-compatible stores reject the newer trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const base = `${options.prefix.replace(/\/+$/, '')}/`;
  const objectKey = (key: string) => base + checkBlobKey(key);
  const encryption = settings.sse
    ? { ServerSideEncryption: settings.sse as ServerSideEncryption, ...(settings.sse === 'aws:kms' && settings.sseKmsKeyId ? { SSEKMSKeyId: settings.sseKmsKeyId } : {}) }
    : {};

  const get = async (key: string) => {
    try {
      const response = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
      return response.Body as Readable;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  };

  const writeStream = async (key: string, source: BlobSource) => {
    const Key = objectKey(key);
    const body = source instanceof Readable ? source : Readable.from(source, { objectMode: false });
    // A single PutObject for a blob smaller than one part, a multipart upload (parts sent 4 at a time) otherwise.
    const upload = new Upload({ client, params: { Bucket, Key, Body: body, ...encryption }, partSize: options.partBytes, leavePartsOnError: true });
    try {
      await upload.done();
    } catch (err) {
      // No object appears; the parts already sent are dropped here, and the caller sees the stream's own error.
      if (upload.uploadId) await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: upload.uploadId })).catch(() => undefined);
      throw err;
    }
  };

  const deleteBatch = async (objects: ObjectIdentifier[], where: string) => {
    if (objects.length === 0) return;
    const deleted = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: objects, Quiet: true } }));
    if (deleted.Errors && deleted.Errors.length > 0) {
      throw new Error(`Could not delete ${deleted.Errors.length} object(s) under ${where}: ${deleted.Errors[0]!.Code ?? 'error'}`);
    }
  };

  /**
   * Every version and delete marker the listing by `Prefix` holds that `ours` accepts. Each
   * round lists from the start again (what it found is deleted, so no marker is needed, and
   * none points at a version that no longer exists), until a round finds none.
   */
  const removeVersionsListed = async (Prefix: string, ours: (key: string) => boolean) => {
    for (;;) {
      const page = await client.send(new ListObjectVersionsCommand({ Bucket, Prefix, MaxKeys: DELETE_BATCH }));
      const objects = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].flatMap((v) => (v.Key && ours(v.Key) ? [{ Key: v.Key, VersionId: v.VersionId }] : []));
      if (objects.length === 0) return;
      await deleteBatch(objects, Prefix);
    }
  };

  /** Every version and delete marker of the keys under `exact/`, then of `exact` itself (it sorts first among the keys it prefixes). */
  const removeVersions = async (exact: string) => {
    await removeVersionsListed(`${exact}/`, () => true);
    await removeVersionsListed(exact, (key) => key === exact);
  };

  /** The current objects of `exact` and under `exact/` (stores without versioning). */
  const removeCurrent = async (exact: string) => {
    await client.send(new DeleteObjectCommand({ Bucket, Key: exact }));
    const Prefix = `${exact}/`;
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken, MaxKeys: DELETE_BATCH }));
      await deleteBatch((page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : [])), Prefix);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  };

  return {
    kind: 's3',
    description: `s3:${settings.endpoint ? `${settings.endpoint.replace(/\/+$/, '')}/` : ''}${Bucket}/${base}`,
    client,
    close: () => client.destroy(),
    async write(key, bytes) {
      await writeStream(key, [bytes]);
    },
    writeStream,
    async read(key) {
      const body = await get(key);
      return body ? collectBlob(body) : null;
    },
    readStream: get,
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (err) {
        if (isMissing(err)) return false;
        throw err;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    /**
     * Erasure: every version of the key `prefix` and of the keys under `prefix/`, and their
     * delete markers, removed for good by version id (ListObjectVersions + DeleteObjects), so
     * a versioned bucket keeps no earlier copy; on an unversioned bucket the current objects
     * are the `null` versions. A store without ListObjectVersions gets the current objects
     * deleted instead. Needs s3:ListBucketVersions and s3:DeleteObjectVersion on AWS.
     */
    async removeTree(prefix) {
      const exact = objectKey(prefix);
      try {
        await removeVersions(exact);
      } catch (err) {
        if (!versioningUnsupported(err)) throw err;
        await removeCurrent(exact);
      }
    },
    async *list(prefix?: string) {
      const Prefix = prefix === undefined ? base : objectKey(prefix);
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(base.length);
          // `prefix` matches `prefix2/...` too: only the key itself and its folder count.
          if (key && (prefix === undefined || key === prefix || key.startsWith(`${prefix}/`))) yield key;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}
