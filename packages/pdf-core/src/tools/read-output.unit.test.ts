import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOutput, SYNC_READ_MAX_BYTES } from './read-output';

describe('reading an engine output back', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-output-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['an empty file', 0],
    ['a small file, read in one go', 10_000],
    ['a file at the limit', SYNC_READ_MAX_BYTES],
    ['a larger file, read through the thread pool', SYNC_READ_MAX_BYTES + 1],
  ])('gives every byte of %s', async (_what, size) => {
    const bytes = randomBytes(size);
    const path = join(dir, `out-${size}.pdf`);
    writeFileSync(path, bytes);
    const read = await readOutput(path);
    expect(read).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(read).equals(bytes)).toBe(true);
  });

  it('rejects, as readFile does, when the engine wrote no file', async () => {
    await expect(readOutput(join(dir, 'missing.pdf'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
