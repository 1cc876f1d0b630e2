import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { eventually, isAlive } from './__tests__/processes';
import { createEngineLauncher, EngineLauncherExitedError, type EngineLauncher, type LaunchOutcome } from './engine-launcher';

/** Another process carrying the given environment, in a group of its own. */
function startStranger(env: Record<string, string> = {}) {
  const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH ?? '', ...env } });
  child.unref();
  return child.pid!;
}

/** The parent pid of `pid`, from /proc. */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** Launches `program argv`: `started` resolves with its pid, `outcome` with how it ended. */
function launch(launcher: EngineLauncher, program: string, argv: string[], hardLimitMs = 300_000) {
  let onStarted!: (pid: number) => void;
  let onDone!: (outcome: LaunchOutcome) => void;
  let onFailed!: (err: Error) => void;
  const started = new Promise<number>((resolve, reject) => {
    onStarted = resolve;
    onFailed = reject;
  });
  const outcome = new Promise<LaunchOutcome>((resolve, reject) => {
    onDone = resolve;
    const failStart = onFailed;
    onFailed = (err) => {
      failStart(err);
      reject(err);
    };
  });
  started.catch(() => undefined);
  outcome.catch(() => undefined);
  const { kill } = launcher.launch(
    { program, argv, env: { PATH: process.env.PATH ?? '', ...launcher.env }, hardLimitMs, maxOutputBytes: 1024 * 1024 },
    { started: (pid) => onStarted(pid), done: (o) => onDone(o), failed: (err) => onFailed(err) },
  );
  return { started, outcome, kill };
}

describe('engine launcher', () => {
  const pids: number[] = [];
  afterEach(() => {
    for (const pid of pids.splice(0)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone: the test's point
      }
    }
  });

  it('starts engines as its own children, each leading a process group, and reports output and exit code', async () => {
    const launcher = createEngineLauncher()!;
    const run = launch(launcher, '/bin/sh', ['-c', 'echo out; echo err >&2; echo "$PPID $(ps -o pgid= -p $$)"; exit 3']);
    const pid = await run.started;
    const outcome = await run.outcome;
    expect(outcome).toMatchObject({ code: 3, signal: null, outputLimit: false, hardLimit: false });
    const [out, ids] = outcome.stdout.toString().trim().split('\n');
    expect(out).toBe('out');
    const [parent, pgid] = ids!.trim().split(/\s+/).map(Number);
    // the engine's parent is the launcher, not this process: the fork happened there
    expect(parent).not.toBe(process.pid);
    expect(parentOf(parent!)).toBe(process.pid);
    expect(pgid).toBe(pid);
    expect(outcome.stderr.toString()).toBe('err\n');
    launcher.close();
  }, 20_000);

  it('kills a group at its hard limit, children included, and says so', async () => {
    const launcher = createEngineLauncher()!;
    const run = launch(launcher, '/bin/sh', ['-c', 'sleep 300 >/dev/null 2>&1 & echo $!; wait'], 300);
    const pid = await run.started;
    pids.push(pid);
    const outcome = await run.outcome;
    expect(outcome).toMatchObject({ signal: 'SIGKILL', hardLimit: true });
    const grandchild = Number(outcome.stdout.toString().trim());
    expect(await eventually(() => !isAlive(pid) && !isAlive(grandchild), 10_000)).toBe(true);
    launcher.close();
  }, 20_000);

  it('kills a group when told to', async () => {
    const launcher = createEngineLauncher()!;
    const run = launch(launcher, 'sleep', ['300']);
    const pid = await run.started;
    pids.push(pid);
    run.kill();
    expect(await run.outcome).toMatchObject({ signal: 'SIGKILL', hardLimit: false });
    expect(isAlive(pid)).toBe(false);
    launcher.close();
  }, 20_000);

  it('reports a missing binary as a failed start with its errno code', async () => {
    const launcher = createEngineLauncher()!;
    const run = launch(launcher, '/nonexistent/engine', []);
    await expect(run.started).rejects.toMatchObject({ code: 'ENOENT' });
    launcher.close();
  }, 20_000);

  it('when its channel ends, kills the engines it started and processes carrying its token, not another service\'s', async () => {
    const launcher = createEngineLauncher()!;
    const known = await launch(launcher, 'sleep', ['300']).started;
    const escaped = startStranger(launcher.env);
    const stranger = startStranger({ PDF_CORE_ENGINE: 'another-service' });
    pids.push(known, escaped, stranger);
    launcher.close();
    expect(await eventually(() => !isAlive(known) && !isAlive(escaped), 10_000)).toBe(true);
    expect(isAlive(stranger)).toBe(true);
  }, 20_000);

  it('when the launcher itself dies, fails its runs and kills their groups, and starts anew on the next run', async () => {
    const launcher = createEngineLauncher()!;
    const run = launch(launcher, 'sleep', ['300']);
    const pid = await run.started;
    pids.push(pid);
    const launcherPid = parentOf(pid);
    process.kill(launcherPid, 'SIGKILL');
    await expect(run.outcome).rejects.toBeInstanceOf(EngineLauncherExitedError);
    expect(await eventually(() => !isAlive(pid), 10_000)).toBe(true);
    const next = launch(launcher, '/bin/sh', ['-c', 'echo $PPID']);
    await next.started;
    const parent = Number((await next.outcome).stdout.toString());
    expect(parent).not.toBe(launcherPid);
    expect(parentOf(parent)).toBe(process.pid);
    launcher.close();
  }, 20_000);
});
