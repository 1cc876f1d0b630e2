import { EngineFailedError, EngineMissingError } from './engine-errors';
import { engineBinary, isLeanEngine, type EngineBinaries, type EngineName } from './engines';
import { execute, type Execution } from './engine-execution';
import { createEngineLauncher } from './engine-launcher';
import { NO_SANDBOX, type EngineSandbox } from './engine-sandbox';
import { FairQueue, halfOf } from './fair-queue';
import { tempDirsSettled, withTempDir } from './temp-dir';
import { currentToolCaller, shuttingDown, ToolCallAbortedError } from './tool-caller';

export interface EngineRunnerOptions {
  /** Most runs of one engine at a time; the rest wait in line (see DEFAULT_CONCURRENCY). */
  concurrency?: Partial<Record<EngineName, number>>;
  /** Time limit of a run that does not set its own, counted from the start of the process, not from joining the queue. */
  defaultTimeoutMs?: number;
  /** Where withTempDir creates its directories; the OS temp dir by default. */
  tmpRoot?: string;
  binaries?: EngineBinaries;
  /**
   * Start engines in the launcher process, so they die with the service, stop at a hard
   * limit, and the fork happens in a small process (engine-launcher.ts); default true where
   * available. False: spawned by this process.
   */
  supervise?: boolean;
  /**
   * Where the engines run (engine-sandbox.ts): resolveEngineSandbox's choice. Default: no
   * sandbox (the engines see what this process sees).
   */
  sandbox?: EngineSandbox;
}

export interface EngineRunOptions {
  timeoutMs?: number;
  cwd?: string;
  /**
   * The only host directory a sandboxed engine sees besides the read-only system dirs
   * (read-write: its input and output files): the call's temp dir. Default: cwd. Without
   * either the engine sees no files but stdin.
   */
  dir?: string;
  /** Added to the small base environment the engine gets (see BASE_ENV_KEYS). */
  env?: Record<string, string>;
  /** Written to the engine's stdin; without it stdin is /dev/null. */
  input?: Buffer;
  /** More stdout than this kills the engine and rejects with EngineOutputLimitError. */
  maxOutputBytes?: number;
  /** Whose run this is (API key id or IP); default: the caller set by withToolCaller. Each client gets at most half of an engine's slots. */
  client?: string;
  /** Aborting drops a waiting run or kills a running engine's group; default: the caller's signal (withToolCaller). */
  signal?: AbortSignal;
}

export interface EngineRunResult {
  stdout: Buffer;
  /** The end of stderr, at most STDERR_KEEP_BYTES. */
  stderr: string;
  /** The process's exit code; 128 + the signal's number when a signal ended it, as shells report it. */
  exitCode: number;
  durationMs: number;
}

export interface EngineRunner {
  /** Runs the engine; any exit code resolves, so the caller can tell a bad input from a broken engine. */
  run(engine: EngineName, args: readonly string[], opts?: EngineRunOptions): Promise<EngineRunResult>;
  /** Like run, but a non-zero exit code rejects with EngineFailedError. */
  runChecked(engine: EngineName, args: readonly string[], opts?: EngineRunOptions): Promise<EngineRunResult>;
  withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T>;
  /** 'launcher' when engines die with the service and have a hard time limit of their own; 'none' otherwise. */
  readonly supervision: 'launcher' | 'none';
  /** 'bwrap' when every engine runs in the sandbox (no network, only its temp dir). */
  readonly sandbox: EngineSandbox['kind'];
  /** Shutdown: waiting runs reject with 503 SHUTTING_DOWN, running engines are killed with their groups. */
  close(): Promise<void>;
}

/**
 * LibreOffice and ghostscript take a core each and a lot of memory; ocrmypdf already
 * runs several tesseract processes itself. The quick tools can share more.
 */
export const DEFAULT_CONCURRENCY: Readonly<Record<EngineName, number>> = {
  ghostscript: 2,
  qpdf: 4,
  libreoffice: 2,
  ocrmypdf: 1,
  pdftoppm: 4,
  pdfinfo: 4,
  pdftotext: 4,
  pdfsig: 4,
  mutool: 4,
  tesseract: 2,
};

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * The only variables of the server's environment an engine sees. The rest (database
 * URLs, signing keys) has no business in a process that parses untrusted files.
 */
const BASE_ENV_KEYS = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TESSDATA_PREFIX', 'OMP_THREAD_LIMIT'];

interface Waiting {
  start(): void;
}

/** One engine's slots: at most `concurrency` running, at most half of them for one client (fair-queue.ts). */
interface EngineSlots {
  concurrency: number;
  active: number;
  queue: FairQueue<Waiting>;
}

export function createEngineRunner(options: EngineRunnerOptions = {}): EngineRunner {
  const slots = new Map<EngineName, EngineSlots>();
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const launcher = options.supervise === false ? null : createEngineLauncher();
  const sandbox = options.sandbox ?? NO_SANDBOX;
  const running = new Set<Execution>();
  const rejecters = new Map<Waiting, (err: Error) => void>();
  let closed = false;

  function slotsOf(engine: EngineName): EngineSlots {
    let s = slots.get(engine);
    if (!s) {
      const concurrency = Math.max(1, options.concurrency?.[engine] ?? DEFAULT_CONCURRENCY[engine]);
      s = { concurrency, active: 0, queue: new FairQueue<Waiting>(halfOf(concurrency)) };
      slots.set(engine, s);
    }
    return s;
  }

  function pump(s: EngineSlots): void {
    while (s.active < s.concurrency) {
      const next = s.queue.take();
      if (!next) return;
      s.active++;
      next.item.start();
    }
  }

  function run(engine: EngineName, args: readonly string[], opts: EngineRunOptions = {}): Promise<EngineRunResult> {
    const caller = currentToolCaller();
    const client = opts.client ?? caller.client ?? FairQueue.ANONYMOUS;
    const signal = opts.signal ?? caller.signal;
    if (closed) return Promise.reject(shuttingDown());
    if (signal?.aborted) return Promise.reject(new ToolCallAbortedError());
    const s = slotsOf(engine);
    return new Promise<EngineRunResult>((resolve, reject) => {
      const onAbort = () => {
        if (s.queue.remove(client, waiting)) settleWaiting(new ToolCallAbortedError());
      };
      const settleWaiting = (err: Error) => {
        rejecters.delete(waiting);
        signal?.removeEventListener('abort', onAbort);
        reject(err);
      };
      const waiting: Waiting = {
        start() {
          rejecters.delete(waiting);
          signal?.removeEventListener('abort', onAbort);
          const started = startRun(engine, args, { ...opts, signal, timeoutMs: opts.timeoutMs ?? defaultTimeoutMs });
          started.then(resolve, reject).finally(() => {
            s.active--;
            s.queue.done(client);
            pump(s);
          });
        },
      };
      rejecters.set(waiting, settleWaiting);
      signal?.addEventListener('abort', onAbort, { once: true });
      s.queue.push(client, waiting);
      pump(s);
    });
  }

  function startRun(engine: EngineName, args: readonly string[], opts: EngineRunOptions & { timeoutMs: number }): Promise<EngineRunResult> {
    let command;
    try {
      command = sandbox.wrap(
        { program: engineBinary(engine, options.binaries), argv: [...args], env: { ...baseEnv(), ...opts.env }, cwd: opts.cwd, lean: isLeanEngine(engine) },
        opts.dir ?? opts.cwd,
      );
    } catch (err) {
      return Promise.reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new EngineMissingError(engine, { cause: err }) : err);
    }
    const execution = execute(
      engine,
      command.program,
      command.argv,
      { ...opts, cwd: command.cwd, env: command.env, maxOutputBytes: opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES },
      launcher,
    );
    running.add(execution);
    return execution.result.finally(() => running.delete(execution));
  }

  return {
    run,
    async runChecked(engine, args, opts) {
      const result = await run(engine, args, opts);
      if (result.exitCode !== 0) throw new EngineFailedError(engine, result.exitCode, result.stderr);
      return result;
    },
    withTempDir: (fn) => withTempDir(fn, options.tmpRoot),
    supervision: launcher ? 'launcher' : 'none',
    sandbox: sandbox.kind,
    async close() {
      closed = true;
      for (const s of slots.values()) {
        for (const waiting of s.queue.drain()) rejecters.get(waiting)?.(shuttingDown());
      }
      const executions = [...running];
      for (const execution of executions) execution.abort(shuttingDown());
      await Promise.allSettled(executions.map((e) => e.result));
      // the temp dirs of calls answered just before (their removal follows the answer)
      await tempDirsSettled();
      launcher?.close();
    },
  };
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of BASE_ENV_KEYS) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}
