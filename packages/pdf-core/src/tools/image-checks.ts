import { ImageHeaderError, readImageHeader, type ImageHeader } from '../images/image-header';
import { PdfInputError } from './errors';

/**
 * Largest image images-to-pdf decodes: 50 megapixels (e.g. 8660×5773; an A4 page scanned
 * at 600 dpi is 35 MP). Decoding takes about 4 bytes a pixel, so this keeps one image
 * near 200 MB; a 20000×20000 PNG of 1 MB would ask for 1.6 GB.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** All the images of one request together: bounds the job's time as well as its memory. */
export const MAX_TOTAL_IMAGE_PIXELS = 250_000_000;

/**
 * Reads every image's header (PNG: every chunk's length and CRC, IHDR, IDAT, IEND; JPEG:
 * the segments up to the frame header) and refuses, with a 422 on `field` naming the
 * file, anything that is not PNG or JPEG, is damaged or truncated, or is over the pixel
 * caps. Reads bytes only, decodes nothing: run it before any decoder sees the images.
 */
export function checkImages(
  images: readonly { data: Uint8Array; name: string }[],
  field = 'files',
  /** Tighter caps for a caller that needs less (a logo); default the images-to-pdf caps. */
  caps: { maxPixels?: number; maxTotalPixels?: number } = {},
): ImageHeader[] {
  const maxPixels = caps.maxPixels ?? MAX_IMAGE_PIXELS;
  const maxTotalPixels = caps.maxTotalPixels ?? MAX_TOTAL_IMAGE_PIXELS;
  const megapixels = (n: number) => `${Math.round(n / 100_000) / 10}`;
  let total = 0;
  return images.map(({ data, name }, i) => {
    const label = `File ${i + 1} ("${name.slice(0, 80)}")`;
    let header: ImageHeader;
    try {
      header = readImageHeader(data);
    } catch (err) {
      if (!(err instanceof ImageHeaderError)) throw err;
      const msg = err.type === 'image_unsupported' ? `${label} is not a PNG or JPEG image` : `${label}: ${err.message}`;
      throw new PdfInputError(field, msg, err.type);
    }
    const pixels = header.width * header.height;
    if (pixels > maxPixels) {
      throw new PdfInputError(field, `${label} is ${header.width}×${header.height} pixels; at most ${megapixels(maxPixels)} megapixels an image`, 'image_too_large');
    }
    total += pixels;
    if (total > maxTotalPixels) {
      throw new PdfInputError(field, `The images add up to more than ${megapixels(maxTotalPixels)} megapixels`, 'images_too_large');
    }
    return header;
  });
}
