import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * How an engine's process group is made to die with the service and to stop at a hard
 * time limit even when the service's event loop is frozen. Node cannot set
 * PR_SET_PDEATHSIG on its children, so one watchdog process per runner (started on the
 * first engine run, engine-watchdog-process.ts) is told of every engine group over a
 * pipe: it kills a group at its hard limit, and kills every group it still knows when
 * the pipe ends, which the kernel does however the service dies (SIGKILL, OOM killer,
 * crash). Engines themselves start directly, with no wrapper process: an engine run
 * costs one exec (earlier, `setpriv --pdeathsig` and coreutils `timeout` cost two more
 * per run, a large share of a quick qpdf call).
 *
 * An engine spawned in the instant before its pipe line is written (a loaded machine can
 * run the engine for a while before the service returns from spawn) is still found when
 * the service dies: every engine carries the watchdog's token in its environment.
 *
 * Limits: a descendant that calls setsid() leaves the group (none of our engines do),
 * and one that also clears its environment escapes.
 */

/** The watchdog's hard limit is the runner's time limit plus this: the runner's own timer normally wins. */
export const HARD_LIMIT_MARGIN_MS = 3_000;

/**
 * The compiled watchdog script. From src (jest) and from dist alike, `../dist` lands on
 * the build output; the test command builds before it runs.
 */
export const ENGINE_WATCHDOG_SCRIPT = resolve(__dirname, '../dist/engine-watchdog-process.js');

export interface EngineWatchdog {
  /**
   * Starts the watchdog process if it is not running. Called before an engine is spawned,
   * so that `watch` right after the spawn is one synchronous pipe write: a service killed
   * while the watchdog itself was being spawned would leave that engine unknown to it.
   */
  ready(): void;
  /** Added to every engine's environment: how the watchdog finds an engine whose `watch` line never arrived. */
  readonly env: Record<string, string>;
  /** A group started: the watchdog kills it `hardLimitMs` from now, or when the service dies. */
  watch(pgid: number, hardLimitMs: number): void;
  /** The group ended. */
  unwatch(pgid: number): void;
  /** Ends the pipe: the watchdog kills what it still knows and exits. */
  close(): void;
}

/** A watchdog started on first use (and again if it died); none where process groups do not exist. */
export function createEngineWatchdog(script = ENGINE_WATCHDOG_SCRIPT): EngineWatchdog | null {
  if (process.platform === 'win32') return null;
  let child: ChildProcess | undefined;
  const token = randomBytes(12).toString('hex');

  function running(): ChildProcess {
    if (child && child.exitCode === null && child.signalCode === null && child.stdin?.writable) return child;
    const started = spawn(process.execPath, ['--max-old-space-size=32', script, token], { stdio: ['pipe', 'ignore', 'ignore'], env: {} });
    // it must not keep the service alive, nor fail it: a write after its death is dropped
    started.unref();
    started.stdin?.on('error', () => undefined);
    (started.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    started.on('error', () => undefined);
    child = started;
    return started;
  }

  // libuv writes to an idle pipe at once, in the call: the line is in the kernel's buffer when write returns
  const send = (line: string) => child?.stdin?.write(`${line}\n`);

  return {
    ready: () => void running(),
    env: { PDF_CORE_ENGINE: token },
    watch: (pgid, hardLimitMs) => send(`+${pgid} ${Math.ceil(hardLimitMs)}`),
    unwatch: (pgid) => send(`-${pgid}`),
    close() {
      child?.stdin?.end();
      child = undefined;
    },
  };
}
