import type { RequestHandler } from 'express';
import multer from 'multer';
import { AppError } from '@firma-riesgo/errors';
import { BadRequestError } from '../errors';

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
 * become the service's 413/422 through the shared error handler. Filenames are read as
 * UTF-8 (what browsers and curl send); multer's default, Latin-1, turns `文件.pdf` into
 * mojibake.
 */
export function multipartUpload(options: UploadOptions): RequestHandler {
  const maxFiles = options.files.reduce((n, f) => n + f.maxCount, 0);
  const parse = multer({
    storage: multer.memoryStorage(),
    defParamCharset: 'utf8',
    limits: { fileSize: options.maxFileBytes, files: maxFiles, fields: 50, fieldSize: 1024 * 1024, parts: maxFiles + 50 },
  }).fields(options.files);
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => next(err === undefined ? undefined : malformedMultipart(err)));
  };
}

/**
 * busboy reports a broken body (no or wrong boundary, unterminated, bad part headers)
 * as a plain Error; that is the client's 400, not a 500. multer's own errors (limits,
 * field names) keep their codes for the shared mapping to 413/422.
 */
function malformedMultipart(err: unknown): unknown {
  if (err instanceof AppError || (err as { name?: string }).name === 'MulterError') return err;
  const reason = err instanceof Error ? err.message : String(err);
  return new BadRequestError(`The multipart/form-data body is malformed: ${reason}`, 'INVALID_MULTIPART');
}

/** The uploaded files of `field` (empty when absent). */
export function uploadedFiles(req: { files?: unknown }, field: string): Express.Multer.File[] {
  const files = req.files as Record<string, Express.Multer.File[]> | undefined;
  return files?.[field] ?? [];
}
