import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A service process started from its compiled entry point (`dist/api.js`, `dist/worker.js`, ...). */
export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** Last lines of its stdout and stderr, for failure messages. */
  output: string[];
  /** Resolves with the URL of its "listening on" banner (HTTP roles only). */
  listening: Promise<string>;
  /** SIGKILL (no clean-up of any kind), resolved once it has exited. */
  kill(): Promise<void>;
  /** SIGTERM, resolved with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * A group of real service processes for a multi-process test: each gets only the
 * environment given (plus PATH), and `killAll` (afterAll) SIGKILLs whatever still runs.
 */
export function serviceProcesses() {
  const started: ServiceProcess[] = [];
  const alive = (p: ServiceProcess) => p.child.exitCode === null && p.child.signalCode === null;
  return {
    start(name: string, entry: string, env: Record<string, string>): ServiceProcess {
      const child = spawn(process.execPath, [entry], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      const output: string[] = [];
      let resolveUrl: (url: string) => void;
      let rejectUrl: (err: Error) => void;
      const listening = new Promise<string>((resolve, reject) => {
        resolveUrl = resolve;
        rejectUrl = reject;
      });
      listening.catch(() => undefined);
      const collect = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line.trim() === '') continue;
          output.push(line);
          if (output.length > 100) output.shift();
          const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
          if (url) resolveUrl(url);
        }
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      child.once('exit', (code, signal) => rejectUrl(new Error(`${name} exited (${signal ?? code}) before listening:\n${output.join('\n')}`)));
      const proc: ServiceProcess = {
        name,
        child,
        output,
        listening,
        async kill() {
          if (!alive(proc)) return;
          const exited = once(child, 'exit');
          child.kill('SIGKILL');
          await exited;
        },
        async stop() {
          if (!alive(proc)) return child.exitCode;
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          const [code] = (await exited) as [number | null];
          return code;
        },
      };
      started.push(proc);
      return proc;
    },
    async killAll(): Promise<void> {
      await Promise.all(started.map((p) => p.kill()));
    },
  };
}

/** Every regular file under `dir` (none when it does not exist), with its path relative to `dir`. */
export function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(at, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(path, join(rel, name));
      else if (stat?.isFile()) found.push(join(rel, name));
    }
  };
  walk(dir, '');
  return found;
}

/** Files under `dir` that are PDFs (by name or by their `%PDF-` header). */
export function pdfFilesUnder(dir: string): string[] {
  return filesUnder(dir).filter((rel) => rel.toLowerCase().endsWith('.pdf') || readFileSync(join(dir, rel)).subarray(0, 5).toString('latin1') === '%PDF-');
}
