/** The engines' process groups: killed on a normal exit of the service (see engine-launcher.ts for the rest). */

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
