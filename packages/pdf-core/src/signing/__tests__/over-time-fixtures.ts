import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as pkijs from 'pkijs';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** Fixtures of the verification-across-time tests (verify-over-time, verify-chain-revocation). */

export const DAY = 24 * 60 * 60 * 1000;

export async function samplePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('Archivo para años', { x: 50, y: 780, size: 16, font });
  return Buffer.from(await doc.save());
}

/** A PEM certificate file as pkijs wants it (the revocation client's arguments). */
export const pem = (file: string) => pkijs.Certificate.fromBER(new Uint8Array(new X509Certificate(readFileSync(file)).raw));

/** Resolves once the wall clock is in a later second than `time` (openssl's revocation time has no fraction). */
export async function untilClockPasses(time: Date): Promise<void> {
  const next = Math.floor(time.getTime() / 1000) * 1000 + 1000;
  while (Date.now() < next) await new Promise((resolve) => setTimeout(resolve, next - Date.now()));
}
