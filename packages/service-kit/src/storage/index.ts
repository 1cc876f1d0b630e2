export * from './blob-store';
export * from './file-store';
export * from './blob-tables';
export * from './postgres-blob-store';
export * from './s3-blob-store';
export * from './storage-config';
export * from './migrate-blobs';
export * from './storage-cli';
