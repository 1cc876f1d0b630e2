import { crc32 } from 'node:zlib';

/**
 * Cheap structural checks of untrusted images, run before any decoder sees them: the
 * dimensions come from the header, so a caller can refuse a bitmap it would not want to
 * allocate, and a file whose chunks or segments do not fit in its own bytes (truncated,
 * padded, forged lengths) is refused without inflating a byte of image data.
 */

export class ImageHeaderError extends Error {
  constructor(
    message: string,
    /** A stable machine-readable reason, used as the validation issue's `type`. */
    readonly type: 'image_unsupported' | 'image_damaged',
  ) {
    super(message);
  }
}

export interface ImageHeader {
  kind: 'png' | 'jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Allowed bit depths per PNG colour type (PNG spec, table 11.1). */
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

export function isPng(data: Uint8Array): boolean {
  return data.length >= 8 && Buffer.from(data.buffer, data.byteOffset, 8).equals(PNG_SIGNATURE);
}

export function isJpeg(data: Uint8Array): boolean {
  return data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
}

const damaged = (what: string) => new ImageHeaderError(`The image is damaged: ${what}`, 'image_damaged');

/**
 * Walks every chunk of a PNG: each length within the buffer, each CRC right, IHDR first
 * with legal values, IDAT present, IEND reached. Bytes after IEND are ignored.
 */
export function readPngHeader(data: Uint8Array): ImageHeader {
  if (!isPng(data)) throw new ImageHeaderError('The image is not a PNG', 'image_unsupported');
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let offset = 8;
  let width = 0;
  let height = 0;
  let sawIdat = false;
  let first = true;
  for (;;) {
    if (offset + 12 > buf.length) throw damaged('it ends before its IEND chunk');
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) throw damaged('a chunk has an invalid type');
    if (length > 0x7fffffff || offset + 12 + length > buf.length) throw damaged(`the ${type} chunk runs past the end of the file`);
    const body = buf.subarray(offset + 8, offset + 8 + length);
    const crc = buf.readUInt32BE(offset + 8 + length);
    if (crc32(buf.subarray(offset + 4, offset + 8 + length)) !== crc) throw damaged(`the ${type} chunk fails its checksum`);
    if (first) {
      if (type !== 'IHDR' || length !== 13) throw damaged('the first chunk is not a 13-byte IHDR');
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, compression, filter, interlace] = [body[8]!, body[9]!, body[10]!, body[11]!, body[12]!];
      if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) throw damaged('its dimensions are invalid');
      if (!PNG_DEPTHS[colour]?.includes(depth)) throw damaged('its colour type and bit depth do not go together');
      if (compression !== 0 || filter !== 0 || interlace > 1) throw damaged('its compression, filter or interlace method is unknown');
      first = false;
    } else if (type === 'IHDR') {
      throw damaged('it has a second IHDR chunk');
    }
    if (type === 'IDAT') sawIdat = true;
    offset += 12 + length;
    if (type === 'IEND') break;
  }
  if (!sawIdat) throw damaged('it has no image data (IDAT)');
  return { kind: 'png', width, height };
}

/** Start-of-frame markers that carry the dimensions (every SOFn except DHT, JPG and DAC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Walks the JPEG marker segments up to the frame header, each length within the buffer. */
export function readJpegHeader(data: Uint8Array): ImageHeader {
  if (!isJpeg(data)) throw new ImageHeaderError('The image is not a JPEG', 'image_unsupported');
  let offset = 2;
  while (offset + 4 <= data.length) {
    if (data[offset] !== 0xff) throw damaged('a marker is missing');
    const marker = data[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or scan data before any frame header
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    const length = (data[offset + 2]! << 8) | data[offset + 3]!;
    if (length < 2 || offset + 2 + length > data.length) throw damaged('a segment runs past the end of the file');
    if (SOF.has(marker)) {
      if (length < 8) throw damaged('its frame header is too short');
      const height = (data[offset + 5]! << 8) | data[offset + 6]!;
      const width = (data[offset + 7]! << 8) | data[offset + 8]!;
      if (width === 0 || height === 0) throw damaged('its dimensions are invalid');
      return { kind: 'jpeg', width, height };
    }
    offset += 2 + length;
  }
  throw damaged('it has no frame header');
}

/** The header of a PNG or JPEG, whichever the bytes are. */
export function readImageHeader(data: Uint8Array): ImageHeader {
  if (isPng(data)) return readPngHeader(data);
  if (isJpeg(data)) return readJpegHeader(data);
  throw new ImageHeaderError('The file is not a PNG or JPEG image', 'image_unsupported');
}
