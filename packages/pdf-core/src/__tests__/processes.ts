import { existsSync, readFileSync } from 'node:fs';

/** A zombie has exited but waits for a parent to reap it; PID 1 of a container may never do so. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Polls `check` every 20 ms until it holds or `withinMs` has passed: a bounded wait on a real condition. */
export async function eventually(check: () => boolean, withinMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/**
 * A shell script for /bin/sh standing in for an engine: records its pid in `$1/engine.pid`,
 * starts a grandchild that does not hold the pipes (`$1/grandchild.pid`), and waits ~5 min.
 */
export const LONG_ENGINE = 'echo $$ > "$1/engine.pid"; sleep 300 >/dev/null 2>&1 & echo $! > "$1/grandchild.pid"; wait';

/**
 * The pid a stand-in engine wrote to `file`: undefined while the file is missing, empty or
 * half written (the shell creates it before `echo` writes). Never 0 or 1: a test that passed
 * `Number('')` to process.kill would signal its own process group, and in CI that group holds
 * jest, npm and the CI script.
 */
export function pidIn(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  if (!/^\d+\n$/.test(text)) return undefined;
  const pid = Number(text);
  return pid > 1 ? pid : undefined;
}
