import type { RequestHandler } from 'express';
import multer from 'multer';

export interface UploadOptions {
  /** Form fields holding files, each with how many files it may carry. */
  files: { name: string; maxCount: number }[];
  /** Largest single file; a larger one answers 413 PAYLOAD_TOO_LARGE. */
  maxFileBytes: number;
}

/**
 * Multipart parsing for every esign upload (documents, PDF tools): files are kept in
 * memory (they are hashed, validated and stored or processed straight away, and the
 * limit bounds the memory), field count and size are capped, and multer's limit errors
 * become the service's 413/422 through the shared error handler.
 */
export function multipartUpload(options: UploadOptions): RequestHandler {
  const maxFiles = options.files.reduce((n, f) => n + f.maxCount, 0);
  return multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: options.maxFileBytes, files: maxFiles, fields: 50, fieldSize: 1024 * 1024, parts: maxFiles + 50 },
  }).fields(options.files);
}

/** The uploaded files of `field` (empty when absent). */
export function uploadedFiles(req: { files?: unknown }, field: string): Express.Multer.File[] {
  const files = req.files as Record<string, Express.Multer.File[]> | undefined;
  return files?.[field] ?? [];
}
