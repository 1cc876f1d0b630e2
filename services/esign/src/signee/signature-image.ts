import { ImageHeaderError, readPngHeader, WorkerTimeoutError, type PdfWorkerPool } from '@firma-riesgo/pdf-core';
import { AppError } from '@firma-riesgo/errors';
import { ValidationError } from '../errors';

/**
 * Limits of the handwritten signature. The pad draws 500×160; twice that on a high-DPI
 * screen and some slack stay well inside.
 */
export const SIGNATURE_IMAGE_LIMITS = {
  bytes: 512 * 1024,
  width: 2000,
  height: 1000,
  /** Time a worker thread gets to decode and re-encode it; past it, 422. */
  decodeMs: 4000,
} as const;

/** The form field a PNG came in: the signature, or the drawn initials (fields). */
export type ImageField = 'firma_imagen_b64' | 'iniciales_imagen_b64';

const invalid = (msg: string, type: string, field: ImageField) => ValidationError.single('body', field, msg, type);

/**
 * Step 1, on the request thread and cheap: base64 (a `data:image/png;base64,` prefix
 * allowed), the size cap, and the PNG's structure (every chunk inside the buffer, CRCs,
 * IHDR, IDAT, IEND) with its dimensions under the caps. No pixel is decoded here.
 */
export function parseSignatureImage(value: string, field: ImageField = 'firma_imagen_b64'): Buffer {
  const data = value.replace(/^data:image\/png;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) throw invalid('The signature image is not base64', 'png_invalid', field);
  if (Math.floor((data.length * 3) / 4) > SIGNATURE_IMAGE_LIMITS.bytes + 3) {
    throw invalid(`The signature image exceeds ${SIGNATURE_IMAGE_LIMITS.bytes / 1024} KiB`, 'png_invalid', field);
  }
  const bytes = Buffer.from(data, 'base64');
  let header;
  try {
    header = readPngHeader(bytes);
  } catch (err) {
    if (err instanceof ImageHeaderError) throw invalid(err.type === 'image_unsupported' ? 'The signature image is not a PNG' : `The signature ${err.message.replace(/^The image/, 'image')}`, 'png_invalid', field);
    throw err;
  }
  if (header.width > SIGNATURE_IMAGE_LIMITS.width || header.height > SIGNATURE_IMAGE_LIMITS.height) {
    throw invalid(`The signature image is ${header.width}×${header.height} pixels; at most ${SIGNATURE_IMAGE_LIMITS.width}×${SIGNATURE_IMAGE_LIMITS.height}`, 'png_invalid', field);
  }
  return bytes;
}

/** A worker that ran over its time or memory: the input's fault, answered 422. */
function overBudget(err: unknown): boolean {
  return err instanceof WorkerTimeoutError || (err instanceof AppError && err.code === 'TOOL_WORKER_FAILED');
}

/**
 * Step 2, on a worker thread under a time budget: decode and encode again, so the PNG
 * stored and stamped is one we wrote. A worker that runs over is terminated and the
 * request gets 422; a full pool answers 503 TOOLS_BUSY as the tools do. `client` (the
 * signee's IP) gets the same fair share of the pool as a tool caller.
 */
export async function normaliseSignatureImage(pool: Pick<PdfWorkerPool, 'run'>, png: Buffer, client?: string, field: ImageField = 'firma_imagen_b64'): Promise<Buffer> {
  try {
    const out = await pool.run(
      'normalise-png',
      { png, field, maxWidth: SIGNATURE_IMAGE_LIMITS.width, maxHeight: SIGNATURE_IMAGE_LIMITS.height },
      // capped like a tool call of that client: one signee cannot take the whole pool
      { timeoutMs: SIGNATURE_IMAGE_LIMITS.decodeMs, client },
    );
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  } catch (err) {
    if (err instanceof ValidationError) throw invalid(err.issues[0]?.msg ?? 'The signature image cannot be decoded', 'png_invalid', field);
    if (overBudget(err)) throw invalid('The signature image could not be decoded within its time and memory budget', 'png_invalid', field);
    throw err;
  }
}

/** The pad's size: a typed name becomes an image as large as a drawn one. */
export const TYPED_NAME_IMAGE = { width: 500, height: 160 } as const;

/** A typed name set as a signature image, on a worker thread under the same budget as a drawn one. */
export async function typedNameImage(pool: Pick<PdfWorkerPool, 'run'>, name: string, client?: string): Promise<Buffer> {
  try {
    const out = await pool.run('typed-name', { name, ...TYPED_NAME_IMAGE }, { timeoutMs: SIGNATURE_IMAGE_LIMITS.decodeMs, client });
    return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  } catch (err) {
    if (overBudget(err)) throw ValidationError.single('body', 'firma_nombre', 'The typed name could not be set within its time budget', 'value_error');
    throw err;
  }
}
