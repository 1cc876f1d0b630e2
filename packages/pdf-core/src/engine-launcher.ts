import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { killGroup } from './engine-supervisor';

/**
 * Where the engines are started: one small launcher process per runner (started on the
 * first engine run, engine-launcher-process.ts) spawns them on the service's behalf.
 *
 * Two reasons. Cost: spawn() forks the calling process, and the cost of a fork grows
 * with its memory (about 3 ms per 100 MB here): from the esign API (~300 MB with mupdf
 * loaded on its worker threads) it was 10–15 ms of blocked event loop per engine, more
 * than a quick qpdf run; from the launcher (~40 MB) it is 1–2 ms. Safety: Node cannot set
 * PR_SET_PDEATHSIG on its children, so the launcher, as the engines' parent, kills every
 * engine group it started when its channel from the service ends, which the kernel does
 * however the service dies (SIGKILL, OOM killer, crash), and kills a group at its hard
 * limit even when the service's event loop is frozen.
 *
 * Every engine also carries the launcher's token in its environment, so a descendant that
 * left the group (setsid) but kept its environment is found too. Limits: one that also
 * clears its environment escapes (none of our engines do either).
 */

/** The launcher's hard limit is the runner's time limit plus this: the runner's own timer normally wins. */
export const HARD_LIMIT_MARGIN_MS = 3_000;

/**
 * The compiled launcher script. From src (jest) and from dist alike, `../dist` lands on
 * the build output; the test command builds before it runs.
 */
export const ENGINE_LAUNCHER_SCRIPT = resolve(__dirname, '../dist/engine-launcher-process.js');

export interface LaunchRequest {
  program: string;
  argv: string[];
  cwd?: string;
  /** The engine's whole environment (the launcher adds nothing but the token, already in `env` of the launcher). */
  env: Record<string, string>;
  input?: Uint8Array;
  /** The launcher kills the group this long after the start. */
  hardLimitMs: number;
  /** More stdout than this: the launcher kills the group and reports `outputLimit`. */
  maxOutputBytes: number;
}

export interface LaunchOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  /** The end of stderr (at most 64 KiB). */
  stderr: Buffer;
  outputLimit: boolean;
  /** The launcher's hard limit killed it. */
  hardLimit: boolean;
}

export interface LaunchHandlers {
  /** The engine runs as the leader of process group `pid`. */
  started(pid: number): void;
  done(outcome: LaunchOutcome): void;
  /** No engine ran (its binary is missing, the working directory is missing...), or the launcher died during the run. */
  failed(err: NodeJS.ErrnoException): void;
}

export interface EngineLauncher {
  /** Added to every engine's environment: how the launcher finds an engine that left its group. */
  readonly env: Record<string, string>;
  /** Starts the engine in the launcher; `kill` kills its group (the outcome follows through `done`). */
  launch(request: LaunchRequest, handlers: LaunchHandlers): { kill(): void };
  /** Ends the channel: the launcher kills what still runs and exits. */
  close(): void;
}

interface Pending {
  handlers: LaunchHandlers;
  pid?: number;
}

/** The launcher process is gone (crashed or killed) while an engine ran; the engine's group was killed. */
export class EngineLauncherExitedError extends Error {
  constructor() {
    super('The PDF engine launcher exited during the run');
  }
}

/** A launcher started on first use (and again if it died); none where process groups do not exist. */
export function createEngineLauncher(script = ENGINE_LAUNCHER_SCRIPT): EngineLauncher | null {
  if (process.platform === 'win32') return null;
  const token = randomBytes(12).toString('hex');
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let child: ChildProcess | undefined;

  /** The channel keeps the service alive only while an engine runs. */
  const channel = (c: ChildProcess) => c.channel as unknown as { ref(): void; unref(): void } | null | undefined;
  const refresh = () => {
    if (child) pending.size > 0 ? channel(child)?.ref() : channel(child)?.unref();
  };

  function running(): ChildProcess {
    if (child?.connected) return child;
    const started = spawn(process.execPath, ['--max-old-space-size=32', script, token], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      env: {},
    });
    started.unref();
    started.on('error', () => undefined);
    started.on('message', (m: { t: string; id: number; pid?: number; error?: { message: string; code?: string } } & LaunchOutcome) => {
      const p = pending.get(m.id);
      if (!p) return;
      if (m.t === 'started') {
        p.pid = m.pid;
        p.handlers.started(m.pid!);
        return;
      }
      pending.delete(m.id);
      refresh();
      if (m.t === 'done') p.handlers.done(m);
      else p.handlers.failed(Object.assign(new Error(m.error?.message ?? 'spawn failed'), { code: m.error?.code }));
    });
    // The channel ends after the last message: what has not been answered by then never will be.
    started.on('disconnect', () => {
      if (child === started) child = undefined;
      for (const [id, p] of pending) {
        pending.delete(id);
        if (p.pid !== undefined) killGroup(p.pid);
        p.handlers.failed(new EngineLauncherExitedError());
      }
    });
    child = started;
    refresh();
    return started;
  }

  return {
    env: { PDF_CORE_ENGINE: token },
    launch(request, handlers) {
      const c = running();
      const id = nextId++;
      pending.set(id, { handlers });
      refresh();
      c.send({ t: 'run', id, ...request }, (err) => {
        if (!err || !pending.has(id)) return;
        pending.delete(id);
        refresh();
        handlers.failed(err);
      });
      return {
        kill() {
          if (pending.has(id) && c.connected) c.send({ t: 'kill', id }, () => undefined);
        },
      };
    },
    close() {
      if (child?.connected) child.disconnect();
      child = undefined;
    },
  };
}
