import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readOutput } from './read-output';

// An integration test only because making a FIFO takes the `mkfifo` program.
describe('reading an engine output back, when the output is not a regular file', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-output-fifo-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('never blocks the event loop on a FIFO left where the output should be', async () => {
    // A blocking open of a FIFO with no writer would hang the whole process (the test would
    // time out); the read goes through the thread pool instead, and a writer that comes along
    // is read as before.
    const path = join(dir, 'out.pdf');
    execFileSync('mkfifo', [path]);
    const reading = readOutput(path);
    await new Promise((resolve) => setImmediate(resolve));
    writeFileSync(path, 'late bytes');
    expect(Buffer.from(await reading).toString()).toBe('late bytes');
  });
});
