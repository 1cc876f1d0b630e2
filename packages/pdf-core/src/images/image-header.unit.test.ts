import { ImageHeaderError, readImageHeader, readJpegHeader, readPngHeader } from './image-header';
import { cutIdatPng, makePng, pngChunk, PNG_SIGNATURE, truncatedPng } from './__tests__/png-fixtures';

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ImageHeaderError) return `${err.type}: ${err.message}`;
    throw err;
  }
  return 'accepted';
}

describe('readPngHeader', () => {
  it('reads the dimensions of a well-formed PNG', () => {
    expect(readPngHeader(makePng(500, 160))).toEqual({ kind: 'png', width: 500, height: 160 });
  });

  it('refuses the truncated PNG that froze the service, without decoding it', () => {
    expect(reason(() => readPngHeader(truncatedPng()))).toMatch(/^image_damaged: .*runs past the end/);
  });

  it('lets through a structurally valid PNG whose pixel data is cut (the decoder must cope, off-thread)', () => {
    expect(readPngHeader(cutIdatPng())).toMatchObject({ width: 200, height: 80 });
  });

  it('refuses a chunk whose checksum is wrong', () => {
    const png = makePng(10, 10);
    png.writeUInt8(png.readUInt8(png.length - 20) ^ 0xff, png.length - 20); // inside the IDAT data
    expect(reason(() => readPngHeader(png))).toMatch(/checksum/);
  });

  it('refuses a forged chunk length far beyond the file', () => {
    const png = makePng(10, 10);
    png.writeUInt32BE(0x7ffffff0, 33); // the IDAT length
    expect(reason(() => readPngHeader(png))).toMatch(/runs past the end/);
  });

  it('refuses a PNG with no IEND, no IDAT, IHDR not first, or impossible values', () => {
    const ihdr = (w: number, h: number, depth = 8, colour = 6) => {
      const b = Buffer.alloc(13);
      b.writeUInt32BE(w, 0);
      b.writeUInt32BE(h, 4);
      b[8] = depth;
      b[9] = colour;
      return pngChunk('IHDR', b);
    };
    const iend = pngChunk('IEND', Buffer.alloc(0));
    const idat = pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
    expect(reason(() => readPngHeader(Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), idat])))).toMatch(/ends before its IEND/);
    expect(reason(() => readPngHeader(Buffer.concat([PNG_SIGNATURE, ihdr(1, 1), iend])))).toMatch(/no image data/);
    expect(reason(() => readPngHeader(Buffer.concat([PNG_SIGNATURE, idat, ihdr(1, 1), iend])))).toMatch(/first chunk/);
    expect(reason(() => readPngHeader(Buffer.concat([PNG_SIGNATURE, ihdr(0, 5), idat, iend])))).toMatch(/dimensions/);
    expect(reason(() => readPngHeader(Buffer.concat([PNG_SIGNATURE, ihdr(5, 5, 3, 2), idat, iend])))).toMatch(/colour type and bit depth/);
  });

  it('reports huge dimensions from the header alone, for the caller to refuse', () => {
    expect(readPngHeader(makePng(20000, 20000, Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])))).toMatchObject({ width: 20000, height: 20000 });
  });

  it('says what a non-PNG is', () => {
    expect(reason(() => readPngHeader(Buffer.from('GIF89a........')))).toMatch(/^image_unsupported/);
  });
});

describe('readJpegHeader', () => {
  /** SOI, an APP0 segment, a baseline SOF0 frame header of `w`×`h`, then EOI. */
  const jpeg = (w: number, h: number) =>
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b, 0x08, h >> 8, h & 0xff, w >> 8, w & 0xff, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9]);

  it('reads the frame header past other segments', () => {
    expect(readJpegHeader(jpeg(20000, 300))).toEqual({ kind: 'jpeg', width: 20000, height: 300 });
    expect(readImageHeader(jpeg(64, 48))).toMatchObject({ kind: 'jpeg', width: 64, height: 48 });
  });

  it('refuses a segment that runs past the end, and a file with no frame header', () => {
    expect(reason(() => readJpegHeader(jpeg(10, 10).subarray(0, 14)))).toMatch(/runs past the end/);
    expect(reason(() => readJpegHeader(Buffer.from([0xff, 0xd8, 0xff, 0xd9])))).toMatch(/no frame header/);
  });
});
