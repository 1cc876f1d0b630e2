import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { performance } from 'node:perf_hooks';
import { EngineFailedError, EngineMissingError, EngineOutputLimitError, EngineTimeoutError } from './engine-errors';
import { engineBinary, type EngineBinaries, type EngineName } from './engines';
import { killGroup, trackGroup, untrackGroup } from './engine-supervisor';
import { createEngineWatchdog, HARD_LIMIT_MARGIN_MS, type EngineWatchdog } from './engine-watchdog';
import { FairQueue, halfOf } from './fair-queue';
import { withTempDir } from './temp-dir';
import { currentToolCaller, shuttingDown, ToolCallAbortedError } from './tool-caller';

export interface EngineRunnerOptions {
  /** Most runs of one engine at a time; the rest wait in line (see DEFAULT_CONCURRENCY). */
  concurrency?: Partial<Record<EngineName, number>>;
  /** Time limit of a run that does not set its own, counted from the start of the process, not from joining the queue. */
  defaultTimeoutMs?: number;
  /** Where withTempDir creates its directories; the OS temp dir by default. */
  tmpRoot?: string;
  binaries?: EngineBinaries;
  /** Tell the engine watchdog of every engine, so engines die with the service and stop at a hard limit (engine-watchdog.ts); default true where available. */
  supervise?: boolean;
}

export interface EngineRunOptions {
  timeoutMs?: number;
  cwd?: string;
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
  /** 'watchdog' when engines die with the service and have a hard time limit of their own; 'none' otherwise. */
  readonly supervision: 'watchdog' | 'none';
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
const STDERR_KEEP_BYTES = 64 * 1024;

/**
 * Stops waiting for the pipes this long after a kill: a process that left the process
 * group (setsid) could keep them open and would otherwise hold the request forever.
 */
const KILL_GRACE_MS = 2_000;

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
  const watchdog = options.supervise === false ? null : createEngineWatchdog();
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

  function startRun(engine: EngineName, args: readonly string[], opts: ExecuteOptions): Promise<EngineRunResult> {
    const execution = execute(engine, [engineBinary(engine, options.binaries), [...args]], opts, watchdog);
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
    supervision: watchdog ? 'watchdog' : 'none',
    async close() {
      closed = true;
      for (const s of slots.values()) {
        for (const waiting of s.queue.drain()) rejecters.get(waiting)?.(shuttingDown());
      }
      const executions = [...running];
      for (const execution of executions) execution.abort(shuttingDown());
      await Promise.allSettled(executions.map((e) => e.result));
      watchdog?.close();
    },
  };
}

type ExecuteOptions = EngineRunOptions & { timeoutMs: number };

interface Execution {
  result: Promise<EngineRunResult>;
  /** Kills the engine's group; the result rejects with `reason`. */
  abort(reason: Error): void;
}

/**
 * Spawns the program with an argument array and no shell, as the leader of a new
 * process group, so that a kill reaches the children it forks too (soffice starts
 * soffice.bin, ocrmypdf starts tesseract and ghostscript). The group is killed on the
 * time limit, on the caller's abort signal, on close() and when the process exits; the
 * watchdog, when there is one, kills it at its hard limit and when the service dies.
 */
function execute(engine: EngineName, [program, argv]: [string, string[]], opts: ExecuteOptions, watchdog: EngineWatchdog | null): Execution {
  const maxOutputBytes = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  let abort: (reason: Error) => void = () => undefined;

  const result = new Promise<EngineRunResult>((resolve, reject) => {
    const started = performance.now();
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    let failure: Error | undefined;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;

    let child: ChildProcess;
    try {
      watchdog?.ready();
      child = spawn(program, argv, {
        cwd: opts.cwd,
        env: { ...baseEnv(), ...opts.env, ...watchdog?.env },
        detached: true,
        stdio: [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      // invalid arguments, e.g. a NUL byte in an argument
      reject(err);
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) {
      trackGroup(pid);
      watchdog?.watch(pid, opts.timeoutMs + HARD_LIMIT_MARGIN_MS);
    }

    const killTree = () => {
      if (pid !== undefined) killGroup(pid);
    };

    abort = (reason: Error) => {
      if (settled) return;
      failure ??= reason;
      killTree();
      grace ??= setTimeout(() => finish(null, null), KILL_GRACE_MS);
    };
    const onAbort = () => abort(new ToolCallAbortedError());
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const timer = setTimeout(() => abort(new EngineTimeoutError(engine, opts.timeoutMs)), opts.timeoutMs);

    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      opts.signal?.removeEventListener('abort', onAbort);
      // Children the engine left behind in its group would otherwise outlive the request.
      // The group id cannot have been reused while they live, and nothing else holds it otherwise.
      killTree();
      if (pid !== undefined) {
        untrackGroup(pid);
        watchdog?.unwatch(pid);
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      const durationMs = Math.round(performance.now() - started);
      // the watchdog's hard limit fired first (the event loop was too busy to run our timer)
      if (!failure && signal === 'SIGKILL' && durationMs >= opts.timeoutMs) failure = new EngineTimeoutError(engine, opts.timeoutMs);
      if (failure) {
        reject(failure);
        return;
      }
      resolve({
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).subarray(-STDERR_KEEP_BYTES).toString('utf8'),
        exitCode: code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0),
        durationMs,
      });
    };

    child.stdout?.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutputBytes) {
        abort(new EngineOutputLimitError(engine, maxOutputBytes));
        return;
      }
      stdout.push(chunk);
    });

    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      stderrBytes += chunk.length;
      // keep the tail: the reason for a failure is usually at the end
      while (stderr.length > 1 && stderrBytes - (stderr[0]?.length ?? 0) >= STDERR_KEEP_BYTES) {
        stderrBytes -= stderr.shift()?.length ?? 0;
      }
    });

    child.on('error', (err: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) {
        abort(err);
        return;
      }
      failure ??= spawnError(engine, err, opts.cwd);
      finish(null, null);
    });

    child.on('close', finish);

    if (opts.input && child.stdin) {
      // An engine may exit without reading all of its input; its exit code tells why, the EPIPE adds nothing.
      child.stdin.on('error', () => undefined);
      child.stdin.end(opts.input);
    }
  });
  return { result, abort: (reason) => abort(reason) };
}

/** Node reports a missing working directory as ENOENT of the binary; tell the two apart. */
function spawnError(engine: EngineName, err: NodeJS.ErrnoException, cwd: string | undefined): Error {
  if (err.code !== 'ENOENT') return err;
  if (cwd !== undefined && !isDirectory(cwd)) {
    return new Error(`Working directory of PDF engine "${engine}" does not exist: ${cwd}`, { cause: err });
  }
  return new EngineMissingError(engine, { cause: err });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of BASE_ENV_KEYS) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}
