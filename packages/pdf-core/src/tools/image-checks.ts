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
export function checkImages(images: readonly { data: Uint8Array; name: string }[], field = 'files'): ImageHeader[] {
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
    if (pixels > MAX_IMAGE_PIXELS) {
      throw new PdfInputError(
        field,
        `${label} is ${header.width}×${header.height} pixels; at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels an image`,
        'image_too_large',
      );
    }
    total += pixels;
    if (total > MAX_TOTAL_IMAGE_PIXELS) {
      throw new PdfInputError(field, `The images add up to more than ${MAX_TOTAL_IMAGE_PIXELS / 1_000_000} megapixels`, 'images_too_large');
    }
    return header;
  });
}
