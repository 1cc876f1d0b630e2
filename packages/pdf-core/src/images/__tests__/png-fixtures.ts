import { crc32, deflateSync } from 'node:zlib';

/** Builds PNGs byte by byte, so tests can make valid, damaged and hostile ones. */

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An RGBA PNG of `width`×`height` from the given IDAT bytes (default: a real striped image). */
export function makePng(width: number, height: number, idat?: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', idat ?? rgbaStripes(width, height)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** Deflated scanlines of a striped, half-transparent RGBA image. */
export function rgbaStripes(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height, 0);
  for (let i = 0; i < raw.length; i += 7) raw[i] = i & 0xff;
  return deflateSync(raw);
}

/**
 * The file that once froze esign: a PNG cut inside its image data, about
 * 60 bytes. pdf-lib's decoder loops forever on it.
 */
export function truncatedPng(): Buffer {
  return makePng(200, 80).subarray(0, 60);
}

/**
 * The same cut, made structurally valid again (IDAT length and CRC fixed, IEND added), so
 * it passes every header check and reaches a decoder: pdf-lib loops forever on it too.
 */
export function cutIdatPng(): Buffer {
  return makePng(200, 80, rgbaStripes(200, 80).subarray(0, 10));
}

/**
 * A decompression bomb: a valid 1-bit greyscale PNG declaring `side`×`side` pixels of zeros,
 * about 50 KB for 20000×20000, which a decoder would expand to 1.6 GB of RGBA.
 */
export function bombPng(side = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((Math.ceil(side / 8) + 1) * side, 0);
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}
