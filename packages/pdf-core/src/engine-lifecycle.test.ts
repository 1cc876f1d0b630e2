import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually, isAlive, LONG_ENGINE, pidIn } from './__tests__/processes';
import { createEngineRunner } from './engine-runner';
import { sweepTempDirs, TEMP_DIR_MAX_AGE_MS } from './temp-dir';
import { ToolCallAbortedError } from './tool-caller';

/** The compiled package: the child processes below are plain node, without ts-jest (the test command builds first). */
const DIST = resolve(__dirname, '../dist');

/**
 * A service stand-in in its own node process: a runner starts LONG_ENGINE inside a
 * withTempDir, then the process does what MODE says: wait, freeze its event loop
 * (as a pathological input can), or exit normally.
 */
const SERVICE = `
const { createEngineRunner } = require(${JSON.stringify(`${DIST}/engine-runner.js`)});
const { withTempDir } = require(${JSON.stringify(`${DIST}/temp-dir.js`)});
const { MODE, PIDS, ROOT, TIMEOUT_MS, SUPERVISE } = process.env;
const runner = createEngineRunner({ binaries: { ghostscript: '/bin/sh' }, supervise: SUPERVISE !== 'no' });
withTempDir(async (dir) => {
  require('node:fs').writeFileSync(dir + '/document.pdf', 'a user document');
  const run = runner.run('ghostscript', ['-c', ${JSON.stringify(LONG_ENGINE)}, 'sh', PIDS], { cwd: dir, timeoutMs: Number(TIMEOUT_MS) });
  if (MODE === 'freeze') for (;;);
  if (MODE === 'exit') {
    const fs = require('node:fs');
    // the shell creates the file before echo writes the pid: exit once the pid is in it
    const written = () => fs.existsSync(PIDS + '/grandchild.pid') && /^\\d+\\n$/.test(fs.readFileSync(PIDS + '/grandchild.pid', 'utf8'));
    const wait = () => (written() ? process.exit(0) : setTimeout(wait, 20));
    wait();
  }
  await run.catch(() => undefined);
}, ROOT);
`;

/** LONG_ENGINE has written both pids. */
const started = (dir: string) => pidsOf(dir).every((pid) => pid !== undefined);
const pidsOf = (dir: string) => ['engine.pid', 'grandchild.pid'].map((n) => pidIn(join(dir, n)));

describe('engine processes and the service process', () => {
  let work: string;
  let service: ChildProcess | undefined;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'lifecycle-'));
  });
  afterEach(() => {
    service?.kill('SIGKILL');
    service = undefined;
    for (const pid of pidsOf(join(work, 'pids'))) {
      if (pid === undefined || !isAlive(pid)) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone: the test's point
      }
    }
    rmSync(work, { recursive: true, force: true });
  });

  function startService(mode: 'wait' | 'freeze' | 'exit', env: Record<string, string> = {}) {
    const paths = { pids: join(work, 'pids'), root: join(work, 'tmp') };
    mkdirSync(paths.pids);
    mkdirSync(paths.root);
    service = spawn(process.execPath, ['-e', SERVICE], {
      env: { PATH: process.env.PATH, MODE: mode, PIDS: paths.pids, ROOT: paths.root, TIMEOUT_MS: '300000', ...env },
      stdio: 'ignore',
    });
    return paths;
  }

  it('kills the engine and its children when the service is killed with SIGKILL, and the sweep removes the temp dir left behind', async () => {
    const paths = startService('wait');
    expect(await eventually(() => started(paths.pids), 10_000)).toBe(true);
    const [engine, grandchild] = pidsOf(paths.pids) as [number, number];
    expect(isAlive(engine) && isAlive(grandchild)).toBe(true);

    service!.kill('SIGKILL');
    expect(await eventually(() => !isAlive(engine) && !isAlive(grandchild), 10_000)).toBe(true);

    // the crash left the call's temp dir with the user's document; the sweep removes it once it is stale
    const left = readdirSync(paths.root);
    expect(left).toHaveLength(1);
    expect(await sweepTempDirs({ root: paths.root })).toEqual([]);
    expect(await sweepTempDirs({ root: paths.root, now: () => Date.now() + TEMP_DIR_MAX_AGE_MS + 1_000 })).toEqual([join(paths.root, left[0]!)]);
    expect(readdirSync(paths.root)).toEqual([]);
  }, 30_000);

  it('stops an engine at its hard limit while the service event loop is frozen and cannot', async () => {
    const paths = startService('freeze', { TIMEOUT_MS: '500' });
    expect(await eventually(() => started(paths.pids), 10_000)).toBe(true);
    const [engine, grandchild] = pidsOf(paths.pids) as [number, number];
    expect(await eventually(() => !isAlive(engine) && !isAlive(grandchild), 15_000)).toBe(true);
    expect(isAlive(service!.pid!)).toBe(true);
  }, 30_000);

  it('kills running engines when the service exits normally, even without the supervisor', async () => {
    const paths = startService('exit', { SUPERVISE: 'no' });
    const exited = new Promise((r) => service!.once('exit', r));
    expect(await eventually(() => started(paths.pids), 10_000)).toBe(true);
    const [engine, grandchild] = pidsOf(paths.pids) as [number, number];
    await exited;
    expect(await eventually(() => !isAlive(engine) && !isAlive(grandchild), 10_000)).toBe(true);
  }, 30_000);
});

describe('abort and shutdown', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'abort-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('kills the engine group when the caller aborts, and drops a waiting run without starting it', async () => {
    const sh = createEngineRunner({ binaries: { ocrmypdf: '/bin/sh' }, concurrency: { ocrmypdf: 1 } });
    const controller = new AbortController();
    const running = sh.run('ocrmypdf', ['-c', LONG_ENGINE, 'sh', dir], { signal: controller.signal }).catch((e: unknown) => e);
    const waiting = sh.run('ocrmypdf', ['-c', 'touch "$1/second-ran"', 'sh', dir], { signal: controller.signal }).catch((e: unknown) => e);
    expect(await eventually(() => started(dir))).toBe(true);
    const [engine, grandchild] = pidsOf(dir) as [number, number];

    controller.abort();
    expect(await running).toBeInstanceOf(ToolCallAbortedError);
    expect(await waiting).toBeInstanceOf(ToolCallAbortedError);
    expect(await eventually(() => !isAlive(engine) && !isAlive(grandchild))).toBe(true);
    expect(existsSync(join(dir, 'second-ran'))).toBe(false);
    // the slot is free again
    expect((await sh.run('ocrmypdf', ['-c', 'echo ok'])).stdout.toString()).toBe('ok\n');
  }, 20_000);

  it('on close kills running engines, rejects waiting runs and new ones with 503 SHUTTING_DOWN', async () => {
    const sh = createEngineRunner({ binaries: { ocrmypdf: '/bin/sh' }, concurrency: { ocrmypdf: 1 } });
    const running = sh.run('ocrmypdf', ['-c', LONG_ENGINE, 'sh', dir]).catch((e: unknown) => e);
    const waiting = sh.run('ocrmypdf', ['-c', 'echo never']).catch((e: unknown) => e);
    expect(await eventually(() => started(dir))).toBe(true);
    const [engine, grandchild] = pidsOf(dir) as [number, number];

    await sh.close();
    expect(await running).toMatchObject({ status: 503, code: 'SHUTTING_DOWN' });
    expect(await waiting).toMatchObject({ status: 503, code: 'SHUTTING_DOWN' });
    expect(await eventually(() => !isAlive(engine) && !isAlive(grandchild))).toBe(true);
    await expect(sh.run('ocrmypdf', ['-c', 'true'])).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });
  }, 20_000);
});

describe('killing engine groups', () => {
  it('takes no group id below 2: kill(-0) would signal the caller\'s own process group', async () => {
    // in a group of its own, so that a broken guard ends only this child
    const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(`${DIST}/engine-supervisor.js`)}).killGroup(0); console.log('alive')`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.once('close', (c, s) => r([c, s])));
    expect({ code, signal, out }).toEqual({ code: 0, signal: null, out: 'alive\n' });
  }, 20_000);
});
