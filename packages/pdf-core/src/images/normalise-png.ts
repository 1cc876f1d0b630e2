import type * as Mupdf from 'mupdf/dist/mupdf';
import { PdfInputError } from '../tools/errors';
import type { NormalisePngArgs } from '../tools/worker-protocol';

/**
 * Decodes an untrusted PNG with mupdf and encodes its pixels again, so that what is
 * stored and later embedded is a PNG this process wrote. Runs only on a worker thread
 * (pdf-worker.ts): a hostile file that makes a decoder spin costs a terminated worker,
 * never the request thread.
 */
export function normalisePng(mupdf: typeof Mupdf, args: NormalisePngArgs): Uint8Array {
  let image: Mupdf.Image | undefined;
  let pixmap: Mupdf.Pixmap | undefined;
  try {
    image = new mupdf.Image(args.png);
    if (image.getWidth() > args.maxWidth || image.getHeight() > args.maxHeight) {
      throw new PdfInputError(args.field, `The image is larger than ${args.maxWidth}×${args.maxHeight} pixels`, 'image_too_large');
    }
    pixmap = image.toPixmap();
    return new Uint8Array(pixmap.asPNG());
  } catch (err) {
    if (err instanceof PdfInputError) throw err;
    throw new PdfInputError(args.field, `The image cannot be decoded: ${String((err as Error)?.message ?? err).slice(0, 120)}`, 'image_damaged');
  } finally {
    pixmap?.destroy();
    image?.destroy();
  }
}
