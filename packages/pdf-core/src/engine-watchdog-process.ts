/**
 * The engine watchdog: a small node process the runner starts once (engine-watchdog.ts).
 * Its stdin is a pipe only the service holds. Lines on it:
 *
 *   +<pgid> <hard limit ms>   an engine group started; kill it with SIGKILL at the limit
 *   -<pgid>                   that group ended
 *
 * When the pipe ends (the service exited, crashed, or was killed with SIGKILL: the kernel
 * closes its end either way), every group still listed is killed, and every process whose
 * environment carries this watchdog's token (argv[2]) too, then the watchdog exits.
 * The hard limits fire even when the service's event loop is frozen. Terminal and
 * shutdown signals are ignored: the watchdog outlives the service only until the pipe ends.
 */
import { readdirSync, readFileSync } from 'node:fs';

const groups = new Map<number, NodeJS.Timeout>();
/** Every engine carries PDF_CORE_ENGINE=<this token> in its environment (and so do its children). */
const marker = process.argv[2] ? Buffer.from(`PDF_CORE_ENGINE=${process.argv[2]}\0`) : null;

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // ESRCH: the group has already exited
  }
}

function handle(line: string): void {
  const m = /^([+-])(\d+)(?: (\d+))?$/.exec(line);
  if (!m) return;
  const pgid = Number(m[2]);
  if (!(pgid > 1)) return;
  clearTimeout(groups.get(pgid));
  groups.delete(pgid);
  if (m[1] === '+') {
    const timer = setTimeout(() => {
      groups.delete(pgid);
      killGroup(pgid);
    }, Number(m[3] ?? 0));
    groups.set(pgid, timer);
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);

let pending = '';
process.stdin.setEncoding('latin1');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  let end: number;
  while ((end = pending.indexOf('\n')) >= 0) {
    handle(pending.slice(0, end));
    pending = pending.slice(end + 1);
  }
});
/**
 * An engine whose line had not been written yet when the service died (it was killed
 * between the spawn and the write) is found by the marker in its environment.
 */
function killMarked(): void {
  if (!marker) return;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  for (const name of pids) {
    try {
      if (!readFileSync(`/proc/${name}/environ`).includes(marker)) continue;
    } catch {
      continue; // gone, or not ours to read
    }
    killGroup(Number(name));
    try {
      process.kill(Number(name), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

const stop = () => {
  for (const pgid of groups.keys()) killGroup(pgid);
  killMarked();
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.on('error', stop);
