import { spawn } from 'node:child_process';
import { eventually, isAlive } from './__tests__/processes';
import { createEngineWatchdog } from './engine-watchdog';

/** A stand-in engine: its own process group, as the runner starts engines. */
function startEngine(env: Record<string, string> = {}) {
  const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH ?? '', ...env } });
  child.unref();
  return child.pid!;
}

describe('engine watchdog', () => {
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone: the test's point
      }
    }
  });

  it('kills a group at its hard limit, and leaves a group that ended in time alone', async () => {
    const watchdog = createEngineWatchdog()!;
    watchdog.ready();
    const [late, done] = [startEngine(), startEngine()];
    started.push(late, done);
    watchdog.watch(late, 300);
    watchdog.watch(done, 300);
    watchdog.unwatch(done);
    expect(await eventually(() => !isAlive(late), 10_000)).toBe(true);
    expect(isAlive(done)).toBe(true);
    watchdog.close();
  }, 20_000);

  it('when its pipe ends, kills the groups it knows and the engines carrying its token it was never told of', async () => {
    const watchdog = createEngineWatchdog()!;
    watchdog.ready();
    const known = startEngine();
    const untold = startEngine(watchdog.env);
    const stranger = startEngine({ PDF_CORE_ENGINE: 'another-service' });
    started.push(known, untold, stranger);
    watchdog.watch(known, 300_000);
    watchdog.close();
    expect(await eventually(() => !isAlive(known) && !isAlive(untold), 10_000)).toBe(true);
    expect(isAlive(stranger)).toBe(true);
  }, 20_000);
});
