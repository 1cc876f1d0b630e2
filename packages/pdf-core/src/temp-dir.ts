import { mkdtempSync } from 'node:fs';
import { lstat, readdir, rm, rmdir, unlink, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOOL_TIMEOUTS } from './tool-timeouts';
import type { OutputBudget } from './output-budget';
import { currentToolCaller } from './tool-caller';

export const TEMP_DIR_PREFIX = 'pdf-core-';

/**
 * A temp dir whose modification time is older than this belongs to no live call and is
 * swept: the longest engine time limit (OCR) plus a margin. A call can outlive that
 * (queueing, several engines in a row), so every live dir is touched each
 * TEMP_DIR_HEARTBEAT_MS: age means "no sign of life", from this process or any other
 * sharing the root.
 */
export const TEMP_DIR_MAX_AGE_MS = Math.max(...Object.values(TOOL_TIMEOUTS)) + 5 * 60_000;
export const TEMP_DIR_HEARTBEAT_MS = 60_000;
export const TEMP_SWEEP_INTERVAL_MS = 5 * 60_000;
/** How often the temp dir of a call with an output budget is measured while it lives. */
export const TEMP_DIR_WATCH_MS = 20;

/** The dirs of this process's calls still running: never swept, touched by the heartbeat. */
const live = new Set<string>();
let heartbeat: NodeJS.Timeout | undefined;

function touchLive(): void {
  const now = new Date();
  for (const dir of live) void utimes(dir, now, now).catch(() => undefined);
}

/** Removals handed to a call's afterAnswer and not finished yet (tempDirsSettled waits for them). */
const removing = new Set<Promise<void>>();

/**
 * Runs `fn` with a fresh private directory and removes the directory afterwards,
 * also when `fn` throws: the files in it are users' documents. mkdtemp creates it
 * with mode 0700 whatever the umask, so other local users cannot read it (synchronously:
 * one mkdir, 0.03 ms, where the thread-pool round trip took 0.4 ms in a quick tool's call).
 * A crash leaves it behind for the sweep (sweepTempDirs).
 *
 * Inside a call with `afterAnswer` (the HTTP tools), the removal runs once the answer is
 * sent instead of before it: no engine runs in the dir any more (`fn` has settled, with
 * every engine it started), the dir stays live (touched, never swept) until it is gone, and
 * tempDirsSettled() waits for it. Without it (signing, a CLI), the call resolves once the
 * dir is gone, as always.
 */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>, root: string = tmpdir()): Promise<T> {
  const dir = mkdtempSync(join(root, TEMP_DIR_PREFIX));
  live.add(dir);
  heartbeat ??= setInterval(touchLive, TEMP_DIR_HEARTBEAT_MS).unref();
  const caller = currentToolCaller();
  const watch = caller.budget ? watchTempDir(dir, caller.budget) : undefined;
  const remove = () => removeDir(dir).finally(() => forget(dir));
  let result: T;
  try {
    result = await fn(dir);
  } catch (err) {
    watch?.stop();
    // a failed clean-up must not hide the error that explains the request's failure
    if (caller.afterAnswer) deferRemoval(caller.afterAnswer, remove);
    else await remove().catch(() => undefined);
    throw err;
  }
  watch?.stop();
  if (caller.afterAnswer) deferRemoval(caller.afterAnswer, remove);
  else await remove();
  return result;
}

function forget(dir: string): void {
  live.delete(dir);
  if (live.size === 0 && heartbeat) {
    clearInterval(heartbeat);
    heartbeat = undefined;
  }
}

/** Hands `remove` to the call's afterAnswer; a removal that fails leaves the dir to the sweep (no longer live). */
function deferRemoval(afterAnswer: (task: () => Promise<void>) => void, remove: () => Promise<void>): void {
  afterAnswer(() => {
    const removal = remove().catch(() => undefined);
    removing.add(removal);
    return removal.finally(() => removing.delete(removal));
  });
}

/**
 * Resolves once every temp dir whose removal has started after its call's answer is gone
 * (shutdown, and tests that look at the temp root after an answer). A removal handed to a
 * response that has not closed yet has not started: it is not waited for.
 */
export async function tempDirsSettled(): Promise<void> {
  while (removing.size > 0) await Promise.all([...removing]);
}

/**
 * Measures `dir` every TEMP_DIR_WATCH_MS while the call's engines write into it; past the
 * budget's workBytes the budget is exceeded, which aborts the call's signal: the engines
 * writing are killed (their group), queued runs dropped. A fast engine can write between
 * two looks, so the dir can pass the limit by what it writes in TEMP_DIR_WATCH_MS.
 */
function watchTempDir(dir: string, budget: OutputBudget): { stop(): void } {
  let measuring = false;
  const timer = setInterval(() => {
    if (measuring || budget.exceeded) return;
    measuring = true;
    void bytesUnder(dir)
      .then((bytes) => {
        if (bytes > budget.workBytes) budget.exceed();
      })
      .catch(() => undefined)
      .finally(() => {
        measuring = false;
      });
  }, TEMP_DIR_WATCH_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** The bytes of the files under `dir` (symlinks not followed); entries that vanish meanwhile count 0. */
export async function bytesUnder(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  const sizes = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return bytesUnder(path);
      try {
        return (await lstat(path)).size;
      } catch {
        return 0;
      }
    }),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/**
 * A flat dir (the usual call's: the upload and an output, or split's parts) goes with one
 * readdir, its unlinks side by side and one rmdir: rm's recursive walk (an lstat and a failed
 * rmdir first, then an lstat per entry) took 0.4 ms for two files here, this 0.25 ms. Anything
 * else (a subdirectory, an error) goes through rm as before.
 */
async function removeDir(dir: string): Promise<void> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    if (!entries.some((entry) => entry.isDirectory())) {
      await Promise.all(entries.map((entry) => unlink(join(dir, entry.name))));
      await rmdir(dir);
      return;
    }
  } catch {
    // gone already, or not flat after all: rm decides
  }
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

export interface SweepOptions {
  /** The root withTempDir creates its dirs in (the runner's tmpRoot); the OS temp dir by default. */
  root?: string;
  maxAgeMs?: number;
  now?: () => number;
}

/**
 * Removes `pdf-core-*` dirs under `root` left by calls that died with their process:
 * real directories (not symlinks) of this user, not in use here, untouched for maxAgeMs.
 * Returns the paths removed. Errors on one dir (another user's, gone meanwhile) skip it.
 */
export async function sweepTempDirs(options: SweepOptions = {}): Promise<string[]> {
  const root = options.root ?? tmpdir();
  const maxAgeMs = options.maxAgeMs ?? TEMP_DIR_MAX_AGE_MS;
  const now = (options.now ?? Date.now)();
  const uid = process.getuid?.();
  const removed: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith(TEMP_DIR_PREFIX)) continue;
    const dir = join(root, entry.name);
    if (live.has(dir)) continue;
    try {
      const info = await lstat(dir);
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
      if (now - info.mtimeMs < maxAgeMs) continue;
      await removeDir(dir);
      removed.push(dir);
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

export interface TempSweeper {
  /** The sweep at start-up; later sweeps run every intervalMs. */
  readonly first: Promise<string[]>;
  stop(): void;
}

/**
 * Sweeps now and then every intervalMs (the timer does not keep the process alive).
 * `onSwept` hears of each sweep that removed something, `onError` of a sweep that failed.
 */
export function startTempSweeper(
  options: SweepOptions & { intervalMs?: number; onSwept?: (dirs: string[]) => void; onError?: (err: unknown) => void } = {},
): TempSweeper {
  const sweep = async () => {
    try {
      const dirs = await sweepTempDirs(options);
      if (dirs.length > 0) options.onSwept?.(dirs);
      return dirs;
    } catch (err) {
      options.onError?.(err);
      return [];
    }
  };
  const first = sweep();
  const timer = setInterval(() => void sweep(), options.intervalMs ?? TEMP_SWEEP_INTERVAL_MS).unref();
  return { first, stop: () => clearInterval(timer) };
}
