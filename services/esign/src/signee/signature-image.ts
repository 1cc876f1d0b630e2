import { PDFDocument } from 'pdf-lib';

export const MAX_SIGNATURE_IMAGE_BYTES = 512 * 1024;
const MAX_SIDE = 4000;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export class InvalidSignatureImageError extends Error {}

/**
 * The handwritten signature as sent by the pad: base64 (a `data:image/png;base64,`
 * prefix allowed), at most 512 KiB decoded, a PNG by its magic bytes, of sane size, and
 * decodable by pdf-lib (which will embed it).
 */
export async function decodeSignatureImage(value: string): Promise<Buffer> {
  const data = value.replace(/^data:image\/png;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) throw new InvalidSignatureImageError('The signature image is not base64');
  if (Math.floor((data.length * 3) / 4) > MAX_SIGNATURE_IMAGE_BYTES + 3) {
    throw new InvalidSignatureImageError(`The signature image exceeds ${MAX_SIGNATURE_IMAGE_BYTES / 1024} KiB`);
  }
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > MAX_SIGNATURE_IMAGE_BYTES) throw new InvalidSignatureImageError(`The signature image exceeds ${MAX_SIGNATURE_IMAGE_BYTES / 1024} KiB`);
  if (bytes.length < PNG_MAGIC.length || !bytes.subarray(0, 8).equals(PNG_MAGIC)) throw new InvalidSignatureImageError('The signature image is not a PNG');
  // IHDR width and height, before asking a decoder to allocate for them.
  const width = bytes.length >= 24 ? bytes.readUInt32BE(16) : 0;
  const height = bytes.length >= 24 ? bytes.readUInt32BE(20) : 0;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) throw new InvalidSignatureImageError('The signature image has unusable dimensions');
  try {
    const probe = await PDFDocument.create();
    await probe.embedPng(bytes);
  } catch {
    throw new InvalidSignatureImageError('The signature image is a damaged PNG');
  }
  return bytes;
}
