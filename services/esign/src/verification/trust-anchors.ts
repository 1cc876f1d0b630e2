import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';

/**
 * ESIGN_TRUST_ANCHORS: a PEM bundle of CA certificates whose chains POST /verificar accepts
 * (besides the service's own local root and current seal certificate). Read once at start;
 * a missing file, or a bundle with an unreadable or no certificate, is an error message.
 */
export function readTrustAnchors(path: string): { ders: Buffer[] } | { error: string } {
  let pem: string;
  try {
    pem = readFileSync(path, 'latin1');
  } catch (err) {
    return { error: `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return { error: `${path} holds no PEM certificate` };
  const ders: Buffer[] = [];
  for (const [i, block] of blocks.entries()) {
    try {
      ders.push(new X509Certificate(block).raw);
    } catch {
      return { error: `${path}: certificate ${i + 1} cannot be read` };
    }
  }
  return { ders };
}
