import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileStore } from './file-store';

describe('file store', () => {
  const root = mkdtempSync(join(tmpdir(), 'store-'));
  const store = createFileStore(root);

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('stores and returns bytes exactly as given', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
    await store.write('reports/a/original.pdf', bytes);
    expect((await store.read('reports/a/original.pdf'))?.equals(bytes)).toBe(true);
  });

  it('answers null for a file that does not exist', async () => {
    expect(await store.read('reports/none/original.pdf')).toBeNull();
  });

  it('leaves neither a partial file nor a temp file behind when a write fails', async () => {
    const bad = { length: 3 } as unknown as Uint8Array;
    await expect(store.write('reports/b/original.pdf', bad)).rejects.toThrow();
    expect(readdirSync(join(root, 'reports', 'b'))).toEqual([]);
  });

  it('refuses keys that climb out of its root', async () => {
    await expect(store.write('../escape.pdf', Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
    await expect(store.read('reports/../../etc/passwd')).rejects.toThrow(/Invalid storage key/);
  });

  it('removes a whole folder of keys', async () => {
    await store.write('reports/c/original.pdf', Buffer.from('x'));
    await store.write('reports/c/requests/r.signed.pdf', Buffer.from('y'));
    await store.removeTree('reports/c');
    expect(readdirSync(join(root, 'reports'))).not.toContain('c');
  });
});
