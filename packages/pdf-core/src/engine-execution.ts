import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { performance } from 'node:perf_hooks';
import { EngineMissingError, EngineOutputLimitError, EngineTimeoutError } from './engine-errors';
import type { EngineName } from './engines';
import { HARD_LIMIT_MARGIN_MS, type EngineLauncher, type LaunchOutcome } from './engine-launcher';
import { collectEnginePipes } from './engine-pipes';
import { killGroup, trackGroup, untrackGroup } from './engine-supervisor';
import { ToolCallAbortedError } from './tool-caller';

/** One engine run: argument array, no shell, its own process group. */
export interface ExecuteOptions {
  timeoutMs: number;
  cwd?: string;
  /** The engine's whole environment. */
  env: Record<string, string>;
  input?: Buffer;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

export interface ExecutionResult {
  stdout: Buffer;
  /** The end of stderr, at most STDERR_KEEP_BYTES (engine-pipes.ts). */
  stderr: string;
  /** The process's exit code; 128 + the signal's number when a signal ended it, as shells report it. */
  exitCode: number;
  durationMs: number;
}

export interface Execution {
  result: Promise<ExecutionResult>;
  /** Kills the engine's group; the result rejects with `reason`. */
  abort(reason: Error): void;
}

/**
 * Stops waiting for the pipes this long after a kill: a process that left the process
 * group (setsid) could keep them open and would otherwise hold the request forever.
 */
const KILL_GRACE_MS = 2_000;

/** How the engine's process is started and killed: by the launcher process, or spawned here. */
interface Started {
  kill(): void;
}
interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}
interface Callbacks {
  started(pid: number): void;
  done(outcome: Outcome): void;
  /** The run failed: `err` as it is, or undefined after `failure` was set. */
  failed(err: Error): void;
}

/**
 * Runs the program as the leader of a new process group, so that a kill reaches the
 * children it forks too (soffice starts soffice.bin, ocrmypdf starts tesseract and
 * ghostscript). The group is killed on the time limit, on the caller's abort signal, on
 * close() and when the process exits. With a launcher (engine-launcher.ts) the engine is
 * started there: it kills the group at its hard limit and when the service dies.
 */
export function execute(engine: EngineName, program: string, argv: string[], opts: ExecuteOptions, launcher: EngineLauncher | null): Execution {
  let abort: (reason: Error) => void = () => undefined;

  const result = new Promise<ExecutionResult>((resolve, reject) => {
    const startedAt = performance.now();
    let failure: Error | undefined;
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    let pid: number | undefined;
    let timer: NodeJS.Timeout | undefined;

    const onAbort = () => abort(new ToolCallAbortedError());
    const finish = (outcome: Outcome | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (grace) clearTimeout(grace);
      opts.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) untrackGroup(pid);
      const durationMs = Math.round(performance.now() - startedAt);
      // the hard limit fired first (the event loop was too busy to run our timer)
      if (!failure && outcome?.signal === 'SIGKILL' && durationMs >= opts.timeoutMs) failure = new EngineTimeoutError(engine, opts.timeoutMs);
      if (failure || !outcome) {
        reject(failure ?? new Error(`PDF engine "${engine}" ended without an outcome`));
        return;
      }
      resolve({
        stdout: outcome.stdout,
        stderr: outcome.stderr,
        exitCode: outcome.code ?? 128 + (outcome.signal ? (osConstants.signals[outcome.signal] ?? 0) : 0),
        durationMs,
      });
    };
    const callbacks: Callbacks = {
      started(p) {
        pid = p;
        trackGroup(p);
      },
      done: finish,
      failed(err) {
        failure ??= spawnError(engine, err, opts.cwd);
        finish(null);
      },
    };

    let started: Started;
    try {
      started = launcher ? launchIn(launcher, engine, program, argv, opts, callbacks) : spawnHere(engine, program, argv, opts, callbacks);
    } catch (err) {
      // invalid arguments, e.g. a NUL byte in an argument
      reject(err);
      return;
    }

    abort = (reason: Error) => {
      if (settled) return;
      failure ??= reason;
      started.kill();
      grace ??= setTimeout(() => finish(null), KILL_GRACE_MS);
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => abort(new EngineTimeoutError(engine, opts.timeoutMs)), opts.timeoutMs);
  });
  return { result, abort: (reason) => abort(reason) };
}

/** The launcher starts the engine; it enforces the output limit and the hard time limit. */
function launchIn(launcher: EngineLauncher, engine: EngineName, program: string, argv: string[], opts: ExecuteOptions, cb: Callbacks): Started {
  // checked here so that a bad argument throws in the caller, as spawn() does
  for (const value of [program, ...argv, opts.cwd ?? '', ...Object.entries(opts.env).flat()]) {
    if (value.includes('\0')) throw Object.assign(new TypeError('An argument, the working directory or the environment of a PDF engine contains a NUL byte'), { code: 'ERR_INVALID_ARG_VALUE' });
  }
  return launcher.launch(
    { program, argv, cwd: opts.cwd, env: { ...opts.env, ...launcher.env }, input: opts.input, hardLimitMs: opts.timeoutMs + HARD_LIMIT_MARGIN_MS, maxOutputBytes: opts.maxOutputBytes },
    {
      started: cb.started,
      done(outcome: LaunchOutcome) {
        if (outcome.outputLimit) cb.failed(new EngineOutputLimitError(engine, opts.maxOutputBytes));
        else cb.done({ code: outcome.code, signal: outcome.signal, stdout: outcome.stdout, stderr: outcome.stderr.toString('utf8') });
      },
      failed: cb.failed,
    },
  );
}

/** Spawned by this process (no launcher: another platform, or `supervise: false`). */
function spawnHere(engine: EngineName, program: string, argv: string[], opts: ExecuteOptions, cb: Callbacks): Started {
  const child: ChildProcess = spawn(program, argv, { cwd: opts.cwd, env: opts.env, detached: true, stdio: [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  const pid = child.pid;
  const kill = () => {
    if (pid !== undefined) killGroup(pid);
  };
  if (pid !== undefined) cb.started(pid);
  const pipes = collectEnginePipes(
    child,
    opts.maxOutputBytes,
    () => {
      cb.failed(new EngineOutputLimitError(engine, opts.maxOutputBytes));
      kill();
    },
    opts.input,
  );
  child.on('error', (err: NodeJS.ErrnoException) => {
    if (child.pid !== undefined) {
      kill();
      return;
    }
    cb.failed(err);
  });
  child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
    // Children the engine left behind in its group would otherwise outlive the request.
    // The group id cannot have been reused while they live, and nothing else holds it otherwise.
    kill();
    child.stdout?.destroy();
    child.stderr?.destroy();
    cb.done({ code, signal, stdout: pipes.stdout(), stderr: pipes.stderr().toString('utf8') });
  });
  return { kill };
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
