import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngineRunner } from './engine-runner';
import { FairQueue } from './fair-queue';
import { withToolCaller, ToolCallAbortedError } from './tool-caller';
import { ToolsBusyError } from './tools/errors';
import { ClientMissingError, createWorkerPool, type RunOptions } from './tools/worker-pool';

describe('FairQueue', () => {
  it('serves clients in turns, skips a client at its cap, and never caps internal work', () => {
    const q = new FairQueue<string>(1);
    for (const item of ['a1', 'a2', 'a3']) q.push('A', item);
    q.push('B', 'b1');
    q.push(FairQueue.ANONYMOUS, 'x1');
    q.push(FairQueue.ANONYMOUS, 'x2');
    expect(q.take()?.item).toBe('a1');
    // A runs its one job: B and internal work go first, internal work as often as it likes
    expect([q.take()?.item, q.take()?.item, q.take()?.item]).toEqual(['b1', 'x1', 'x2']);
    expect(q.take()).toBeUndefined();
    q.done('A');
    expect(q.take()?.item).toBe('a2');
  });
});

describe('one client cannot take every engine slot', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fair-engine-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("runs another client's call while one client has more runs waiting than there are slots", async () => {
    const sh = createEngineRunner({ binaries: { pdfsig: '/bin/sh' }, concurrency: { pdfsig: 2 } });
    // each of A's runs holds its slot until the test creates `release` (at most 30 s)
    const hold = 'touch "started-$1"; i=0; while [ ! -e release ] && [ $i -lt 1500 ]; do sleep 0.02; i=$((i+1)); done';
    const flood = withToolCaller({ client: 'key-A' }, () =>
      Promise.all([1, 2, 3, 4].map((i) => sh.run('pdfsig', ['-c', hold, 'sh', `a${i}`], { cwd: dir }))),
    );
    // A holds its slot (its first run is past its start) before B asks for one.
    for (let i = 0; i < 500 && !existsSync(join(dir, 'started-a1')); i++) await new Promise((r) => setTimeout(r, 20));
    const other = await sh.run('pdfsig', ['-c', 'echo done'], { cwd: dir, client: 'key-B' });

    expect(other.stdout.toString()).toBe('done\n');
    expect(existsSync(join(dir, 'release'))).toBe(false); // B finished while A still held its slot
    expect(readdirSync(dir).filter((n) => n.startsWith('started-'))).toEqual(['started-a1']); // A: half of 2 slots
    writeFileSync(join(dir, 'release'), '');
    expect((await flood).map((r) => r.exitCode)).toEqual([0, 0, 0, 0]);
  }, 20_000);
});

describe('one client cannot take every worker', () => {
  /** A stand-in worker: `hold` blocks its thread until the gate opens (at most 30 s), `echo` answers at once. */
  const script = join(mkdtempSync(join(tmpdir(), 'fair-worker-')), 'worker.js');
  writeFileSync(
    script,
    `const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, op, args }) => {
  if (op === 'hold') Atomics.wait(args.gate, 0, 0, 30000);
  parentPort.postMessage({ id, type: 'done', result: op });
});`,
  );
  afterAll(() => rmSync(join(script, '..'), { recursive: true, force: true }));

  type Run = (op: string, args: unknown, options?: RunOptions) => Promise<unknown>;
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const open = () => {
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
  };
  beforeEach(() => Atomics.store(gate, 0, 0));

  it("gives a client half the workers, so another client's job completes while it floods the pool", async () => {
    const pool = createWorkerPool({ size: 2, maxQueue: 64, script });
    const run = pool.run as unknown as Run;
    try {
      const flood = Promise.all([1, 2, 3, 4, 5, 6].map(() => run('hold', { gate }, { client: 'key-A' })));
      expect(await run('echo', {}, { client: 'key-B' })).toBe('echo');
      expect(pool.stats()).toMatchObject({ busy: 1, queued: 5 }); // A still holds one worker, its others wait
      open();
      expect(await flood).toHaveLength(6);
    } finally {
      open();
      await pool.close();
    }
  });

  it("answers 503 TOOLS_BUSY to a client whose own line is full, and still takes others' jobs", async () => {
    const pool = createWorkerPool({ size: 2, maxQueue: 8, script }); // 2 waiting per client
    const run = pool.run as unknown as Run;
    try {
      const accepted = [1, 2, 3].map(() => run('hold', { gate }, { client: 'key-A' }));
      const refused = await run('hold', { gate }, { client: 'key-A' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ToolsBusyError);
      expect((refused as ToolsBusyError).headers['Retry-After']).toBeDefined();
      expect(await run('echo', {}, { client: 'key-B' })).toBe('echo');
      open();
      await Promise.all(accepted);
    } finally {
      open();
      await pool.close();
    }
  });

  it('drops a waiting job when its caller aborts', async () => {
    const pool = createWorkerPool({ size: 2, script });
    const run = pool.run as unknown as Run;
    try {
      const holding = run('hold', { gate }, { client: 'key-A' });
      const controller = new AbortController();
      const waiting = withToolCaller({ client: 'key-A', signal: controller.signal }, () => run('echo', {})).catch((e: unknown) => e);
      expect(pool.stats().queued).toBe(1);
      controller.abort();
      expect(await waiting).toBeInstanceOf(ToolCallAbortedError);
      expect(pool.stats().queued).toBe(0);
      open();
      await holding;
    } finally {
      open();
      await pool.close();
    }
  });

  it('refuses, in a pool that requires clients, a job that says neither whose it is nor that it is internal', async () => {
    const pool = createWorkerPool({ size: 1, script, requireClient: true });
    const run = pool.run as unknown as Run;
    try {
      const refused = await run('echo', {}).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ClientMissingError);
      expect(refused).toMatchObject({ status: 500, code: 'TOOL_CLIENT_MISSING' });
      expect(pool.stats()).toMatchObject({ started: 0, queued: 0 });
      expect(await run('echo', {}, { client: 'ip:2001:db8::/64' })).toBe('echo');
      expect(await withToolCaller({ client: 'key-A' }, () => run('echo', {}))).toBe('echo');
      expect(await run('echo', {}, { internal: true })).toBe('echo');
    } finally {
      await pool.close();
    }
  });
});
