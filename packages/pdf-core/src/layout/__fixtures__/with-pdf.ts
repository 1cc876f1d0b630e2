import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes the PDF bytes to a temp file for a command-line reader, and removes it afterwards. */
export async function withPdf<T>(pdf: Uint8Array, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'layout-test-'));
  try {
    const path = join(dir, 'doc.pdf');
    await writeFile(path, pdf);
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
