import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually } from './__tests__/processes';
import { EngineMissingError, EngineTimeoutError } from './engine-errors';
import { createEngineRunner } from './engine-runner';
import { bwrapSandbox, EngineSandboxUnavailableError, resolveEngineSandbox } from './engine-sandbox';

/** A loopback TCP listener counting the connections it accepts. */
async function listener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  return { port, connections: () => count, close: () => new Promise((done) => server.close(() => done())) };
}

/** python3 standing in for an engine: connects to 127.0.0.1:port, prints "connected" or the error. */
const CONNECT = 'import socket,sys\ntry:\n  socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5).close(); print("connected")\nexcept OSError as e:\n  print("refused", e)';

describe('the engine sandbox (bubblewrap)', () => {
  let work: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  it('is available on this machine (bwrap installed, namespaces allowed)', async () => {
    const resolved = await resolveEngineSandbox('bwrap');
    expect(resolved.sandbox.kind).toBe('bwrap');
    expect(resolved.unavailable).toBeUndefined();
  });

  it('gives the engine no network: a connection to a loopback listener fails and the listener sees nothing', async () => {
    const net = await listener();
    try {
      const { sandbox } = await resolveEngineSandbox('bwrap');
      const sandboxed = createEngineRunner({ sandbox, binaries: { pdftotext: '/usr/bin/python3' } });
      const inside = await sandboxed.run('pdftotext', ['-c', CONNECT, String(net.port)]);
      expect(inside.stdout.toString()).toMatch(/^refused/);
      expect(net.connections()).toBe(0);
      await sandboxed.close();

      // the same engine outside the sandbox does connect: the listener and the script work
      const plain = createEngineRunner({ binaries: { pdftotext: '/usr/bin/python3' } });
      const outside = await plain.run('pdftotext', ['-c', CONNECT, String(net.port)]);
      expect(outside.stdout.toString()).toMatch(/^connected/);
      expect(await eventually(() => net.connections() === 1)).toBe(true);
      await plain.close();
    } finally {
      await net.close();
    }
  });

  it('gives a lean engine (qpdf, pdfinfo) no /proc and of /dev only null, zero, random and urandom, which work', async () => {
    const { sandbox } = await resolveEngineSandbox('bwrap');
    const runner = createEngineRunner({ sandbox, binaries: { qpdf: '/bin/sh', pdftotext: '/bin/sh' } });
    const script = 'ls /dev | sort | tr "\\n" " "; echo; ls /proc | wc -l; head -c 16 /dev/urandom | wc -c; head -c 4 /dev/zero | wc -c; echo discarded > /dev/null && echo null-ok';
    const lean = (await runner.run('qpdf', ['-c', script])).stdout.toString().split('\n');
    expect(lean[0]!.trim()).toBe('null random urandom zero');
    expect(lean.slice(1, 5).map((l) => l.trim())).toEqual(['0', '16', '4', 'null-ok']);
    // an engine that is not lean keeps the full /dev and /proc
    const full = (await runner.run('pdftotext', ['-c', script])).stdout.toString().split('\n');
    expect(full[0]).toContain('tty');
    expect(Number(full[1])).toBeGreaterThan(0);
    await runner.close();
  });

  it('shows the engine its temp dir (read-write) and no other file of the service', async () => {
    const { sandbox } = await resolveEngineSandbox('bwrap');
    const runner = createEngineRunner({ sandbox, binaries: { pdftotext: '/bin/sh' }, tmpRoot: work });
    // a "DATA_DIR" beside the call's dir, and a file of this repository (not a system dir)
    writeFileSync(join(work, 'tenant-file.pdf'), 'TENANT-SECRET-4711');
    const repoFile = resolve(__dirname, '../package.json');
    const out = await runner.withTempDir(async (dir) => {
      await writeFile(join(dir, 'in.txt'), 'input-bytes');
      const script = 'cat in.txt; echo; cat "$1" 2>&1; echo; cat "$2" 2>&1; echo; ls /tmp; echo made > out.txt; echo "HOME=$HOME"';
      const result = await runner.run('pdftotext', ['-c', script, 'sh', join(work, 'tenant-file.pdf'), repoFile], { cwd: dir });
      return { stdout: result.stdout.toString(), written: await readFile(join(dir, 'out.txt'), 'utf8'), dir };
    });
    expect(out.stdout).toContain('input-bytes');
    expect(out.stdout).not.toContain('TENANT-SECRET-4711');
    expect(out.stdout).not.toContain('@firma-riesgo/pdf-core');
    expect(out.stdout.match(/No such file or directory/g)).toHaveLength(2);
    expect(out.stdout).toContain(`HOME=${out.dir}`);
    expect(out.written).toBe('made\n');
    await runner.close();
  });

  it('covers the paths it is told to hide, even inside a system dir', async () => {
    const sandbox = bwrapSandbox({ hide: ['/etc/hostname', '/usr/share/doc'] });
    const runner = createEngineRunner({ sandbox, binaries: { pdftotext: '/bin/sh' } });
    const result = await runner.run('pdftotext', ['-c', 'ls /usr/share/doc | wc -l; ls /etc/fonts | wc -l; cat /etc/hostname']);
    const [docs, fonts, ...hostname] = result.stdout.toString().split('\n');
    const real = readFileSync('/etc/hostname', 'utf8').trim();
    expect(real).not.toBe('');
    expect(readdirSync('/usr/share/doc').length).toBeGreaterThan(0);
    expect(Number(docs)).toBe(0);
    expect(Number(fonts)).toBeGreaterThan(0);
    expect(hostname.join('')).toBe('');
    expect(result.stderr).toContain('/etc/hostname');
    await runner.close();
  });

  it('still kills a sandboxed engine and everything it started at the time limit', async () => {
    const { sandbox } = await resolveEngineSandbox('bwrap');
    const runner = createEngineRunner({ sandbox, binaries: { ghostscript: '/bin/sh' } });
    const error = await runner.run('ghostscript', ['-c', 'sleep 307.25 & sleep 307.25; wait'], { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineTimeoutError);
    const sleepers = () =>
      readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('307.25');
          } catch {
            return false;
          }
        });
    expect(await eventually(() => sleepers().length === 0)).toBe(true);
    await runner.close();
  });

  it('runs an engine installed outside the system dirs, seeing its dir read-only', async () => {
    const { sandbox } = await resolveEngineSandbox('bwrap');
    writeFileSync(join(work, 'my-engine'), '#!/bin/sh\necho "engine ran"; echo x > "$0.written" 2>/dev/null || echo "read-only"\n', { mode: 0o755 });
    const runner = createEngineRunner({ sandbox, binaries: { qpdf: join(work, 'my-engine') } });
    const result = await runner.run('qpdf', []);
    expect(result.stdout.toString()).toBe('engine ran\nread-only\n');
    await runner.close();
  });

  it('reports a missing engine as missing, not as a sandbox failure', async () => {
    const { sandbox } = await resolveEngineSandbox('bwrap');
    const runner = createEngineRunner({ sandbox, binaries: { qpdf: 'no-such-engine-here' } });
    await expect(runner.run('qpdf', ['--version'])).rejects.toBeInstanceOf(EngineMissingError);
    await runner.close();
  });

  it('auto runs unsandboxed with a reason where bwrap cannot start; bwrap refuses; off never probes', async () => {
    const auto = await resolveEngineSandbox('auto', { binary: join(work, 'no-bwrap') });
    expect(auto.sandbox.kind).toBe('none');
    expect(auto.unavailable).toContain('not installed');
    await expect(resolveEngineSandbox('bwrap', { binary: join(work, 'no-bwrap') })).rejects.toBeInstanceOf(EngineSandboxUnavailableError);
    // a bwrap that exists but fails (namespaces refused) is a reason too
    writeFileSync(join(work, 'failing-bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const refused = await resolveEngineSandbox('auto', { binary: join(work, 'failing-bwrap') });
    expect(refused).toMatchObject({ sandbox: { kind: 'none' }, unavailable: 'bwrap: No permissions to create new namespace' });
    expect(await resolveEngineSandbox('off', { binary: join(work, 'no-bwrap') })).toEqual({ sandbox: expect.objectContaining({ kind: 'none' }) });
  });
});
