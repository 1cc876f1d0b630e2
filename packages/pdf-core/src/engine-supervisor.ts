/** The engines' process groups: killed on a normal exit of the service (see engine-launcher.ts for the rest); killGroup serves the launcher too. */

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
  // -0 and -1 are not a group: kill(0) signals the caller's own group, kill(-1) every process it may
  if (!(pid > 1)) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the whole group has already exited
  }
}
