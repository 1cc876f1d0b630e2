import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineRunner } from '../engine-runner';
import { damagedPdf, notPdf } from './errors';
import { runQpdf } from './qpdf';
import { writeInput } from './write-input';

/** PDF readers accept the header anywhere in the first 1 KiB (junk before it happens). */
export function hasPdfHeader(data: Uint8Array): boolean {
  return Buffer.from(data.buffer, data.byteOffset, Math.min(data.length, 1024)).includes('%PDF-');
}

export interface QpdfEncryptJson {
  encrypted: boolean;
  userpasswordmatched: boolean;
  ownerpasswordmatched: boolean;
  capabilities: Record<string, boolean>;
  parameters: { R: number; V: number; bits: number; method: string };
}

export interface PdfStructure {
  pages: number;
  encrypt: QpdfEncryptJson;
}

/**
 * Parses the file's structure with qpdf (xref, trailer, page tree): a damaged or
 * locked file fails here, before any engine spends time on it.
 */
export async function probePdf(
  runner: EngineRunner,
  dir: string,
  path: string,
  options: { password?: string; passwordField?: string; extraKeys?: string[] } = {},
): Promise<PdfStructure & Record<string, unknown>> {
  const keys = ['encrypt', 'pages', ...(options.extraKeys ?? [])].map((k) => `--json-key=${k}`);
  const result = await runQpdf(runner, dir, ['--json=2', ...keys, path], options);
  let json: { pages?: unknown[]; encrypt?: QpdfEncryptJson } & Record<string, unknown>;
  try {
    json = JSON.parse(result.stdout.toString('utf8'));
  } catch {
    throw damagedPdf();
  }
  if (!Array.isArray(json.pages) || !json.encrypt) throw damagedPdf();
  if (json.pages.length === 0) throw damagedPdf('file', 'it has no pages');
  return { ...json, pages: json.pages.length, encrypt: json.encrypt };
}

export interface PreparedPdf {
  /** The input, decrypted when it was encrypted without a user password. */
  path: string;
  pages: number;
  /** Whether the input carried (owner-password) encryption that was removed. */
  decrypted: boolean;
}

/**
 * Writes an uploaded PDF to `dir` and checks it: a PDF header, a readable structure,
 * no password needed to open it. A file that opens without a password but is
 * encrypted (owner restrictions only) is decrypted, so every engine can read it.
 */
export async function preparePdf(runner: EngineRunner, dir: string, input: Uint8Array, name = 'in.pdf'): Promise<PreparedPdf> {
  if (!hasPdfHeader(input)) throw notPdf();
  const path = join(dir, name);
  await writeInput(path, input);
  const structure = await probePdf(runner, dir, path);
  if (!structure.encrypt.encrypted) return { path, pages: structure.pages, decrypted: false };
  const decrypted = join(dir, `decrypted-${name}`);
  await runQpdf(runner, dir, ['--decrypt', path, decrypted]);
  await rename(decrypted, path);
  return { path, pages: structure.pages, decrypted: true };
}
