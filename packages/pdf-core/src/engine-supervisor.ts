import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

/**
 * How an engine's process group is made to die with the service. Node cannot set
 * PR_SET_PDEATHSIG on its children, so each engine starts through two small standard
 * programs (util-linux setpriv, coreutils timeout), with argument arrays, no shell:
 *
 *   setpriv --pdeathsig TERM -- timeout --signal=KILL --kill-after=1 -- <hard limit> /abs/engine args...
 *
 * - setpriv sets the parent-death signal and execs timeout, which keeps it (it is not
 *   set-uid). When the service dies, however it dies (SIGKILL, OOM killer, crash),
 *   the kernel sends timeout SIGTERM; timeout forwards it to the whole process group
 *   (the engine and everything it forked) and sends SIGKILL one second later.
 * - timeout also enforces a hard time limit of its own, a little past the runner's:
 *   an engine stops even when the service's event loop is frozen and cannot kill it.
 *
 * Limits: a descendant that calls setsid() leaves the group and escapes both (none of
 * our engines do). Where either program is missing (not Linux), engines run directly
 * and only the runner's own timer, abort and shutdown kill them.
 */
export interface Supervisor {
  setpriv: string;
  timeout: string;
}

/** timeout's hard limit is the runner's time limit plus this: the runner's own timer normally wins. */
export const HARD_LIMIT_MARGIN_MS = 3_000;

let detected: Supervisor | null | undefined;

/** setpriv (with --pdeathsig: util-linux 2.33+) and timeout on PATH, looked up once per process. */
export function detectSupervisor(): Supervisor | null {
  if (detected !== undefined) return detected;
  detected = null;
  if (process.platform !== 'linux') return detected;
  const setpriv = findOnPath('setpriv');
  const timeout = findOnPath('timeout');
  if (!setpriv || !timeout) return detected;
  const help = spawnSync(setpriv, ['--help'], { encoding: 'utf8', timeout: 5_000 });
  if (!String(help.stdout).includes('--pdeathsig')) return detected;
  detected = { setpriv, timeout };
  return detected;
}

/** The argv that runs `binary` (an absolute path) under the supervisor with a hard limit. */
export function supervisedArgv(supervisor: Supervisor, binary: string, args: readonly string[], timeoutMs: number): [string, string[]] {
  const hardLimit = ((timeoutMs + HARD_LIMIT_MARGIN_MS) / 1000).toFixed(3);
  return [supervisor.setpriv, ['--pdeathsig', 'TERM', '--', supervisor.timeout, '--signal=KILL', '--kill-after=1', '--', hardLimit, binary, ...args]];
}

/** An executable file: `name` itself when it holds a slash, else the first match on PATH. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | null {
  if (name.includes('/')) return isExecutable(name) ? name : null;
  for (const dir of path.split(delimiter)) {
    const candidate = join(dir || '.', name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Process groups of engines still running, killed when the process exits normally
 * (process.exit, end of the event loop): `exit` handlers can only do synchronous work,
 * and process.kill is synchronous.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(pid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) killGroup(group);
    });
  }
  liveGroups.add(pid);
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}

export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the whole group has already exited
  }
}
