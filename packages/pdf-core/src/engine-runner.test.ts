import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UnavailableError } from '@firma-riesgo/errors';
import { minimalPdf } from './__tests__/minimal-pdf';
import { eventually, isAlive } from './__tests__/processes';
import { EngineFailedError, EngineMissingError, EngineOutputLimitError, EngineTimeoutError } from './engine-errors';
import { createEngineRunner } from './engine-runner';

const runner = createEngineRunner();

describe('run', () => {
  it('runs a real engine with an argument array and returns its output', async () => {
    const result = await runner.run('qpdf', ['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.toString()).toMatch(/^qpdf version \d+\.\d+/);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('lets qpdf check a PDF written to a temp dir', async () => {
    const out = await runner.withTempDir(async (dir) => {
      const file = join(dir, 'in.pdf');
      await writeFile(file, minimalPdf());
      return runner.runChecked('qpdf', ['--check', file]);
    });
    expect(out.stdout.toString()).toContain('No syntax or stream encoding errors found');
  });

  it('passes arguments with spaces, quotes and shell syntax literally, running no shell', async () => {
    await runner.withTempDir(async (dir) => {
      const name = 'a b; touch pwned1 $(touch pwned2) `touch pwned3` \'q" & > x.pdf';
      await writeFile(join(dir, name), minimalPdf());
      const result = await runner.run('pdfinfo', [name], { cwd: dir });
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      expect(result.stdout.toString()).toMatch(/^Pages:\s+1$/m);
      expect(await readdir(dir)).toEqual([name]);
    });
  });

  it('resolves with the exit code when the engine fails, leaving the judgement to the caller', async () => {
    await runner.withTempDir(async (dir) => {
      const file = join(dir, 'not-a.pdf');
      await writeFile(file, 'garbage');
      const result = await runner.run('qpdf', ['--check', file]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('unable to find trailer dictionary');
    });
  });

  it('rejects a failed run in runChecked with ENGINE_FAILED, keeping stderr out of the message', async () => {
    await runner.withTempDir(async (dir) => {
      const file = join(dir, 'secret-name.pdf');
      await writeFile(file, 'garbage');
      const error = await runner.runChecked('qpdf', ['--check', file]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineFailedError);
      const failed = error as EngineFailedError;
      expect(failed).toMatchObject({ status: 500, code: 'ENGINE_FAILED', engine: 'qpdf', exitCode: 2 });
      expect(failed.stderrTail).toContain('secret-name.pdf');
      expect(failed.message).not.toContain('secret-name');
    });
  });

  it('writes the input buffer to the engine stdin', async () => {
    const cat = createEngineRunner({ binaries: { pdftotext: '/bin/cat' } });
    const input = Buffer.from([0, 1, 2, 255, 0x25, 0x50, 0x44, 0x46]);
    const result = await cat.run('pdftotext', [], { input });
    expect(result.stdout.equals(input)).toBe(true);
  });

  it('kills the engine and rejects when stdout exceeds maxOutputBytes', async () => {
    const error = await runner.run('qpdf', ['--help=all'], { maxOutputBytes: 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineOutputLimitError);
    expect(error).toMatchObject({ engine: 'qpdf', maxOutputBytes: 1024 });
  });

  it('gives the engine a small environment, without the server secrets, plus the env option', async () => {
    process.env.PDF_CORE_TEST_SECRET = 'hunter2';
    try {
      const env = createEngineRunner({ binaries: { pdftotext: '/usr/bin/env' } });
      const result = await env.run('pdftotext', [], { env: { EXTRA_SETTING: 'on' } });
      const lines = result.stdout.toString().split('\n');
      expect(lines).toContain('EXTRA_SETTING=on');
      expect(lines.some((l) => l.startsWith('PATH='))).toBe(true);
      expect(result.stdout.toString()).not.toContain('hunter2');
    } finally {
      delete process.env.PDF_CORE_TEST_SECRET;
    }
  });

  it('starts engines in the launcher process (a small one to fork), or here with supervise: false', async () => {
    const parentOf = async (r: ReturnType<typeof createEngineRunner>) => Number((await r.run('mutool', ['-c', 'echo $PPID'])).stdout.toString());
    const launched = createEngineRunner({ binaries: { mutool: '/bin/sh' } });
    const launcherPid = await parentOf(launched);
    expect(launcherPid).not.toBe(process.pid);
    const stat = await readFile(`/proc/${launcherPid}/stat`, 'utf8');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])).toBe(process.pid);
    expect(await readFile(`/proc/${launcherPid}/cmdline`, 'utf8')).toContain('engine-launcher-process.js');
    await launched.close();
    expect(await parentOf(createEngineRunner({ binaries: { mutool: '/bin/sh' }, supervise: false }))).toBe(process.pid);
  });

  it('reports a process ended by a signal as 128 plus the signal number', async () => {
    const sh = createEngineRunner({ binaries: { mutool: '/bin/sh' } });
    const result = await sh.run('mutool', ['-c', 'kill -TERM $$']);
    expect(result.exitCode).toBe(143);
  });
});

describe('missing engines', () => {
  it('rejects with a 503 EngineMissingError naming the engine when its binary does not exist', async () => {
    const missing = createEngineRunner({ binaries: { qpdf: '/nonexistent/bin/qpdf-not-here' } });
    const error = await missing.run('qpdf', ['--version']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineMissingError);
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ status: 503, code: 'ENGINE_MISSING', engine: 'qpdf' });
    expect((error as Error).message).toBe('PDF engine "qpdf" is not installed');
  });

  it('does not mistake a missing working directory for a missing engine', async () => {
    const error = await runner.run('qpdf', ['--version'], { cwd: '/nonexistent/dir' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(EngineMissingError);
    expect((error as Error).message).toContain('Working directory');
  });
});

describe('timeouts', () => {
  it('kills the whole process tree and rejects with ENGINE_TIMEOUT', async () => {
    const sh = createEngineRunner({ binaries: { ocrmypdf: '/bin/sh' } });
    await sh.withTempDir(async (dir) => {
      // The grandchild does not hold the pipes, so only a group kill can end it before 30 s.
      const script = 'echo $$ > leader.pid; sleep 30 >/dev/null 2>&1 & echo $! > grandchild.pid; wait';
      const error = await sh.run('ocrmypdf', ['-c', script], { cwd: dir, timeoutMs: 1_500 }).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(EngineTimeoutError);
      expect(error).toMatchObject({ status: 504, code: 'ENGINE_TIMEOUT', engine: 'ocrmypdf', timeoutMs: 1_500 });
      expect((error as Error).message).toBe('PDF engine "ocrmypdf" did not finish within 1500 ms');

      const leader = Number(await readFile(join(dir, 'leader.pid'), 'utf8'));
      const grandchild = Number(await readFile(join(dir, 'grandchild.pid'), 'utf8'));
      expect(grandchild).toBeGreaterThan(0);
      expect(await eventually(() => !isAlive(leader))).toBe(true);
      expect(await eventually(() => !isAlive(grandchild))).toBe(true);
    });
  }, 20_000);
});

describe('concurrency', () => {
  /**
   * Each run logs its start, then waits (up to a second) for the other run to start
   * before logging its end: runs that are allowed to overlap always interleave.
   */
  const script =
    'echo "start $1" >> log; : > "started-$1"; i=0; ' +
    'while [ ! -e "started-$2" ] && [ $i -lt 50 ]; do sleep 0.02; i=$((i+1)); done; ' +
    'echo "end $1" >> log';

  async function twoRuns(limit: number): Promise<string[]> {
    const sh = createEngineRunner({ binaries: { pdfsig: '/bin/sh' }, concurrency: { pdfsig: limit } });
    return sh.withTempDir(async (dir) => {
      await Promise.all([
        sh.run('pdfsig', ['-c', script, 'sh', 'a', 'b'], { cwd: dir }),
        sh.run('pdfsig', ['-c', script, 'sh', 'b', 'a'], { cwd: dir }),
      ]);
      return (await readFile(join(dir, 'log'), 'utf8')).trim().split('\n');
    });
  }

  it('runs one engine at a time when its limit is 1, in the order the runs were asked for', async () => {
    expect(await twoRuns(1)).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('lets two runs overlap when the limit is 2 (the check above can see an overlap)', async () => {
    const log = await twoRuns(2);
    expect(log.slice(0, 2).every((line) => line.startsWith('start'))).toBe(true);
  });

  it('limits each engine separately', async () => {
    const sh = createEngineRunner({
      binaries: { pdfsig: '/bin/sh', mutool: '/bin/sh' },
      concurrency: { pdfsig: 1, mutool: 1 },
    });
    const log = await sh.withTempDir(async (dir) => {
      await Promise.all([
        sh.run('pdfsig', ['-c', script, 'sh', 'a', 'b'], { cwd: dir }),
        sh.run('mutool', ['-c', script, 'sh', 'b', 'a'], { cwd: dir }),
      ]);
      return (await readFile(join(dir, 'log'), 'utf8')).trim().split('\n');
    });
    expect(log.slice(0, 2).every((line) => line.startsWith('start'))).toBe(true);
  });
});

describe('withTempDir', () => {
  it('gives a private directory and removes it with its contents on success', async () => {
    let seen = '';
    const value = await runner.withTempDir(async (dir) => {
      seen = dir;
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      await writeFile(join(dir, 'file.pdf'), minimalPdf());
      return 42;
    });
    expect(value).toBe(42);
    await expect(stat(seen)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes the directory when the function throws, and rethrows its error', async () => {
    let seen = '';
    const boom = new Error('boom');
    const error = await runner
      .withTempDir(async (dir) => {
        seen = dir;
        await writeFile(join(dir, 'partial.pdf'), 'x');
        throw boom;
      })
      .catch((e: unknown) => e);
    expect(error).toBe(boom);
    expect(seen).not.toBe('');
    await expect(stat(seen)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('creates its directories under tmpRoot when given', async () => {
    await runner.withTempDir(async (root) => {
      const scoped = createEngineRunner({ tmpRoot: root });
      const inner = await scoped.withTempDir(async (dir) => dir);
      expect(inner.startsWith(`${root}/`)).toBe(true);
      expect(await readdir(root)).toEqual([]);
    });
  });
});
