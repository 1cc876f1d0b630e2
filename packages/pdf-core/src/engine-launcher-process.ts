/**
 * The engine launcher: a small node process the runner starts once (engine-launcher.ts).
 * It starts the engines the service asks for, so that the fork() behind every engine
 * happens in this small process: forking the service itself (hundreds of MB of heap,
 * mupdf's wasm memory on the worker threads) cost 10–15 ms per engine, more than a
 * quick qpdf run.
 *
 * Messages on the IPC channel (advanced serialization, buffers travel as they are):
 *
 *   service -> launcher   { t: 'run', id, program, argv, cwd, env, input, hardLimitMs, maxOutputBytes }
 *                         { t: 'kill', id }
 *   launcher -> service   { t: 'started', id, pid }
 *                         { t: 'done', id, code, signal, stdout, stderr, outputLimit, hardLimit }
 *                         { t: 'failed', id, error }     (the spawn itself failed: no process)
 *
 * Each engine leads a new process group. The launcher kills a group at its hard limit,
 * even when the service's event loop is frozen; kills it when told (the service's own
 * time limit, an abort, shutdown); kills what the leader left in it when it exits. When
 * the channel ends (the service exited, crashed, or was killed with SIGKILL: the kernel
 * closes its end either way) it kills every group it started, and every process whose
 * environment carries this launcher's token (argv[2]) too, then exits. Terminal and
 * shutdown signals are ignored: it outlives the service only until the channel ends.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { collectEnginePipes } from './engine-pipes';
import { killGroup } from './engine-supervisor';
import type { LaunchRequest } from './engine-launcher';

type RunMessage = { t: 'run'; id: number } & LaunchRequest;
type Incoming = RunMessage | { t: 'kill'; id: number };

/** Stops waiting for the pipes this long after a kill (a descendant that left the group could hold them). */
const KILL_GRACE_MS = 2_000;

/** Every engine carries PDF_CORE_ENGINE=<this token> in its environment (and so do its children). */
const marker = process.argv[2] ? Buffer.from(`PDF_CORE_ENGINE=${process.argv[2]}\0`) : null;

interface Running {
  child: ChildProcess;
  pid: number;
  kill(): void;
}
const running = new Map<number, Running>();

const send = (message: object) => {
  if (process.connected) process.send?.(message);
};

function run(m: RunMessage): void {
  let child: ChildProcess;
  try {
    child = spawn(m.program, m.argv, { cwd: m.cwd, env: m.env, detached: true, stdio: [m.input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  } catch (err) {
    send({ t: 'failed', id: m.id, error: errorOf(err) });
    return;
  }
  const pid = child.pid;
  let outputLimit = false;
  let hardLimit = false;
  let settled = false;
  let grace: NodeJS.Timeout | undefined;

  const kill = () => {
    if (pid !== undefined) killGroup(pid);
    grace ??= setTimeout(() => finish(null, 'SIGKILL'), KILL_GRACE_MS);
  };
  const timer = setTimeout(() => {
    hardLimit = true;
    kill();
  }, m.hardLimitMs);
  const pipes = collectEnginePipes(
    child,
    m.maxOutputBytes,
    () => {
      outputLimit = true;
      kill();
    },
    m.input,
  );

  const finish = (code: number | null, signal: NodeJS.Signals | null) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (grace) clearTimeout(grace);
    // Children the engine left behind in its group would otherwise outlive the request.
    // The leader was reaped just now; the group id cannot be reused while members live.
    if (pid !== undefined) killGroup(pid);
    running.delete(m.id);
    child.stdout?.destroy();
    child.stderr?.destroy();
    send({ t: 'done', id: m.id, code, signal, stdout: pipes.stdout(), stderr: pipes.stderr(), outputLimit, hardLimit });
  };

  child.on('error', (err) => {
    if (child.pid !== undefined) {
      kill();
      return;
    }
    clearTimeout(timer);
    settled = true;
    send({ t: 'failed', id: m.id, error: errorOf(err) });
  });
  child.on('close', finish);
  if (pid === undefined) return; // 'error' follows (ENOENT, EACCES...)

  running.set(m.id, { child, pid, kill });
  send({ t: 'started', id: m.id, pid });
}

function errorOf(err: unknown): { message: string; code?: string; name?: string } {
  const e = err as NodeJS.ErrnoException;
  return { message: e?.message ?? String(err), code: e?.code, name: e?.name };
}

/**
 * An engine that left its group but kept its environment is found by the marker
 * (a descendant that called setsid; none of our engines do).
 */
function killMarked(): void {
  if (!marker) return;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return;
  }
  for (const name of pids) {
    try {
      if (!readFileSync(`/proc/${name}/environ`).includes(marker)) continue;
    } catch {
      continue; // gone, or not ours to read
    }
    killGroup(Number(name));
    try {
      process.kill(Number(name), 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

// started without its channel: nothing to serve
if (!process.send) process.exit(1);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);

process.on('message', (m: Incoming) => {
  if (m.t === 'run') run(m);
  else if (m.t === 'kill') running.get(m.id)?.kill();
});

process.on('disconnect', () => {
  for (const { pid } of running.values()) killGroup(pid);
  killMarked();
  process.exit(0);
});
