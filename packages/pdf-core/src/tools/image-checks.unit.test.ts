import { pngChunk, PNG_SIGNATURE } from '../images/__tests__/png-fixtures';
import { PdfInputError } from './errors';
import { checkImages, MAX_IMAGE_PIXELS } from './image-checks';

/** A PNG whose header claims width×height, with a token IDAT: only the header is read. */
function pngHeaderOnly(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00])), pngChunk('IEND', Buffer.alloc(0))]);
}

const issue = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PdfInputError);
    return (err as PdfInputError).issues[0];
  }
  throw new Error('expected a PdfInputError');
};

describe('checkImages', () => {
  it('passes images up to the pixel cap and returns their headers', () => {
    expect(checkImages([{ data: pngHeaderOnly(10_000, 5_000), name: 'a.png' }])).toEqual([{ kind: 'png', width: 10_000, height: 5_000 }]);
  });

  it('refuses an image over the cap at the given field, naming the file', () => {
    expect(MAX_IMAGE_PIXELS).toBeLessThan(20_000 * 20_000);
    const found = issue(() => checkImages([{ data: pngHeaderOnly(100, 100), name: 'ok.png' }, { data: pngHeaderOnly(20_000, 20_000), name: 'big.png' }]));
    expect(found).toMatchObject({ loc: ['form', 'files'], type: 'image_too_large' });
    expect(found?.msg).toContain('File 2 ("big.png")');
  });

  it('refuses images that add up to more than the total cap', () => {
    const images = Array.from({ length: 6 }, (_, i) => ({ data: pngHeaderOnly(10_000, 5_000), name: `${i}.png` }));
    expect(issue(() => checkImages(images))).toMatchObject({ type: 'images_too_large' });
  });

  it('refuses truncated, non-image and tampered data as damaged or unsupported', () => {
    const png = pngHeaderOnly(10, 10);
    expect(issue(() => checkImages([{ data: png.subarray(0, png.length - 5), name: 'cut.png' }]))).toMatchObject({ type: 'image_damaged' });
    expect(issue(() => checkImages([{ data: Buffer.from('GIF89a'), name: 'x.gif' }]))).toMatchObject({ type: 'image_unsupported' });
    const tampered = Buffer.from(png);
    tampered[17] = 0x7f; // the width inside IHDR: its CRC no longer matches
    expect(issue(() => checkImages([{ data: tampered, name: 't.png' }]))).toMatchObject({ type: 'image_damaged' });
  });
});
