import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTempSweeper, sweepTempDirs, tempDirsSettled, TEMP_DIR_MAX_AGE_MS, withTempDir } from './temp-dir';
import { withToolCaller } from './tool-caller';

describe('sweeping temp dirs left by crashed calls', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sweep-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A dir as a crashed call leaves it, last touched `ageMs` ago. */
  function leftover(name: string, ageMs: number): string {
    const dir = join(root, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'in.pdf'), 'a user document');
    const then = new Date(Date.now() - ageMs);
    utimesSync(dir, then, then);
    return dir;
  }

  it('removes stale pdf-core dirs and keeps fresh ones, other names, and what symlinks point to', async () => {
    const stale = leftover('pdf-core-stale', TEMP_DIR_MAX_AGE_MS + 60_000);
    leftover('pdf-core-fresh', 60_000);
    leftover('other-stale', TEMP_DIR_MAX_AGE_MS + 60_000);
    const target = leftover('target', TEMP_DIR_MAX_AGE_MS + 60_000);
    symlinkSync(target, join(root, 'pdf-core-link'));

    expect(await sweepTempDirs({ root })).toEqual([stale]);
    expect(readdirSync(root).sort()).toEqual(['other-stale', 'pdf-core-fresh', 'pdf-core-link', 'target']);
    expect(readdirSync(target)).toEqual(['in.pdf']);
  });

  it.each([
    ['files only', ['in.pdf', 'out.pdf']],
    ['a subdirectory too', ['in.pdf', 'profile/user/registry.xcu']],
  ])('removes the call dir with what the call left in it: %s', async (_what, files) => {
    await withTempDir(async (dir) => {
      for (const file of files) {
        mkdirSync(join(dir, file, '..'), { recursive: true });
        writeFileSync(join(dir, file), 'a user document');
      }
    }, root);
    expect(readdirSync(root)).toEqual([]);
  });

  it('never removes a dir a call of this process is still using, however old it looks', async () => {
    await withTempDir(async (dir) => {
      const then = new Date(Date.now() - 2 * TEMP_DIR_MAX_AGE_MS);
      utimesSync(dir, then, then);
      expect(await sweepTempDirs({ root })).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);
    }, root);
  });

  describe('in a call that answers first (afterAnswer: the HTTP tools)', () => {
    /** A call whose answer is "sent" when the test runs the tasks handed to afterAnswer. */
    function answeringCall() {
      const tasks: (() => Promise<void>)[] = [];
      return { tasks, run: <T>(fn: () => Promise<T>) => withToolCaller({ afterAnswer: (task) => tasks.push(task) }, fn) };
    }

    it('keeps the dir, live and never swept, until the answer is sent; then removes it, and tempDirsSettled waits for that', async () => {
      const call = answeringCall();
      const dir = await call.run(() =>
        withTempDir(async (d) => {
          writeFileSync(join(d, 'out.pdf'), 'a user document');
          return d;
        }, root),
      );
      expect(readdirSync(dir)).toEqual(['out.pdf']);
      const then = new Date(Date.now() - 2 * TEMP_DIR_MAX_AGE_MS);
      utimesSync(dir, then, then);
      expect(await sweepTempDirs({ root })).toEqual([]);
      expect(call.tasks).toHaveLength(1);
      void call.tasks[0]!();
      await tempDirsSettled();
      expect(readdirSync(root)).toEqual([]);
    });

    it('hands over the removal when the call fails too, and the failure is still the one thrown', async () => {
      const call = answeringCall();
      await expect(call.run(() => withTempDir(async () => Promise.reject(new Error('engine failed')), root))).rejects.toThrow('engine failed');
      expect(readdirSync(root)).toHaveLength(1);
      await Promise.all(call.tasks.map((task) => task()));
      expect(readdirSync(root)).toEqual([]);
    });
  });

  it('sweeps once at start-up, then stops when told', async () => {
    const stale = leftover('pdf-core-crashed', TEMP_DIR_MAX_AGE_MS + 1);
    const swept: string[][] = [];
    const sweeper = startTempSweeper({ root, onSwept: (dirs) => swept.push(dirs) });
    try {
      expect(await sweeper.first).toEqual([stale]);
      expect(swept).toEqual([[stale]]);
    } finally {
      sweeper.stop();
    }
  });

  it('reports a sweep that fails instead of throwing', async () => {
    const errors: unknown[] = [];
    const sweeper = startTempSweeper({ root: join(root, 'missing'), onError: (err) => errors.push(err) });
    sweeper.stop();
    expect(await sweeper.first).toEqual([]);
    expect(errors).toHaveLength(1);
  });
});
