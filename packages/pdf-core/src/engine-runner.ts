import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { EngineFailedError, EngineMissingError, EngineOutputLimitError, EngineTimeoutError } from './engine-errors';
import { engineBinary, type EngineBinaries, type EngineName } from './engines';
import { withTempDir } from './temp-dir';

export interface EngineRunnerOptions {
  /** Most runs of one engine at a time; the rest wait in line (see DEFAULT_CONCURRENCY). */
  concurrency?: Partial<Record<EngineName, number>>;
  /** Time limit of a run that does not set its own, counted from the start of the process, not from joining the queue. */
  defaultTimeoutMs?: number;
  /** Where withTempDir creates its directories; the OS temp dir by default. */
  tmpRoot?: string;
  binaries?: EngineBinaries;
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

export function createEngineRunner(options: EngineRunnerOptions = {}): EngineRunner {
  const limits = new Map<EngineName, pLimit.Limit>();
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;

  function limitOf(engine: EngineName): pLimit.Limit {
    let limit = limits.get(engine);
    if (!limit) {
      limit = pLimit(options.concurrency?.[engine] ?? DEFAULT_CONCURRENCY[engine]);
      limits.set(engine, limit);
    }
    return limit;
  }

  function run(engine: EngineName, args: readonly string[], opts: EngineRunOptions = {}): Promise<EngineRunResult> {
    const binary = engineBinary(engine, options.binaries);
    return limitOf(engine)(() => execute(engine, binary, args, { ...opts, timeoutMs: opts.timeoutMs ?? defaultTimeoutMs }));
  }

  return {
    run,
    async runChecked(engine, args, opts) {
      const result = await run(engine, args, opts);
      if (result.exitCode !== 0) throw new EngineFailedError(engine, result.exitCode, result.stderr);
      return result;
    },
    withTempDir: (fn) => withTempDir(fn, options.tmpRoot),
  };
}

type ExecuteOptions = EngineRunOptions & { timeoutMs: number };

/**
 * Spawns the binary with an argument array and no shell, as the leader of a new
 * process group, so that a kill reaches the children it forks too (soffice starts
 * soffice.bin, ocrmypdf starts tesseract and ghostscript).
 */
function execute(engine: EngineName, binary: string, args: readonly string[], opts: ExecuteOptions): Promise<EngineRunResult> {
  const maxOutputBytes = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;

  return new Promise<EngineRunResult>((resolve, reject) => {
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
      child = spawn(binary, args, {
        cwd: opts.cwd,
        env: { ...baseEnv(), ...opts.env },
        detached: true,
        stdio: [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      // invalid arguments, e.g. a NUL byte in an argument
      reject(err);
      return;
    }

    const killTree = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the whole group has already exited
      }
    };

    const abort = (reason: Error) => {
      failure ??= reason;
      killTree();
      grace ??= setTimeout(() => finish(null, null), KILL_GRACE_MS);
    };

    const timer = setTimeout(() => abort(new EngineTimeoutError(engine, opts.timeoutMs)), opts.timeoutMs);

    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      // Children the engine left behind in its group would otherwise outlive the request.
      // The group id cannot have been reused while they live, and nothing else holds it otherwise.
      killTree();
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (failure) {
        reject(failure);
        return;
      }
      resolve({
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).subarray(-STDERR_KEEP_BYTES).toString('utf8'),
        exitCode: code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0),
        durationMs: Math.round(performance.now() - started),
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
