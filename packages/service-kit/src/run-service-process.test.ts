import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createLogger } from './logger';
import { loadConfigOrExit, runServiceProcess, startupBanner, startupLogFields, type ProcessIo, type ServiceProcessRuntime } from './run-service-process';

class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

function fakeIo() {
  const io = { errors: [] as string[], written: [] as string[] };
  const handle: ProcessIo = {
    error: (line) => void io.errors.push(line),
    write: (text) => void io.written.push(text),
    exit: (code) => {
      throw new Exited(code);
    },
  };
  return { ...io, handle };
}

function fakeRuntime(overrides: Partial<ServiceProcessRuntime> = {}): ServiceProcessRuntime & { logged: unknown[] } {
  const logged: unknown[] = [];
  const logger = createLogger({ service: 'demo', level: 'silent' });
  logger.info = ((obj: unknown, msg?: string) => void logged.push([obj, msg])) as typeof logger.info;
  return {
    logged,
    logger,
    version: '1.2.3',
    database: { description: 'postgres://db/demo' },
    jobs: { mode: 'in-process' },
    url: 'http://127.0.0.1:8000',
    close: async () => undefined,
    ...overrides,
  };
}

describe('loadConfigOrExit', () => {
  it('returns the parsed configuration', () => {
    expect(loadConfigOrExit('demo', () => ({ port: 1 }), fakeIo().handle)).toEqual({ port: 1 });
  });

  it('prints "<service>: <message>" and exits 2 when a variable is bad', () => {
    const io = fakeIo();
    const bad = () => loadConfigOrExit('demo', () => { throw new Error('Invalid configuration:\n  - PORT: too big'); }, io.handle);
    expect(bad).toThrow(new Exited(2));
    expect(io.errors).toEqual(['demo: Invalid configuration:\n  - PORT: too big']);
  });
});

describe('the start-up log line and banner', () => {
  it('logs role, url, database and jobs, then the service’s own fields', () => {
    expect(startupLogFields('all', fakeRuntime(), { mail: 'smtp' })).toEqual({
      role: 'all', url: 'http://127.0.0.1:8000', database: 'postgres://db/demo', jobs: 'in-process', mail: 'smtp',
    });
  });

  it('prints where the service listens and what it runs on, then the extra lines', () => {
    const banner = startupBanner('demo', fakeRuntime({ jobs: { mode: 'bullmq' } }), ['', '  export DEMO_KEY=k']);
    expect(banner).toBe(
      '\n  demo 1.2.3 listening on http://127.0.0.1:8000\n    health   http://127.0.0.1:8000/health\n    docs     http://127.0.0.1:8000/docs\n' +
        '    database postgres://db/demo\n    jobs     BullMQ on REDIS_URL\n\n  export DEMO_KEY=k\n\n',
    );
  });

  it('says when jobs run in-process, and prints nothing for a worker without a URL', () => {
    expect(startupBanner('demo', fakeRuntime())).toContain('    jobs     in-process (no REDIS_URL)\n\n');
    expect(startupBanner('demo', fakeRuntime({ url: undefined }), ['never'])).toBeNull();
  });
});

describe('runServiceProcess', () => {
  const signalListeners = () => [...process.listeners('SIGTERM'), ...process.listeners('SIGINT')];
  let before: Function[];
  beforeEach(() => (before = signalListeners()));
  afterEach(() => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      for (const listener of process.listeners(signal)) if (!before.includes(listener)) process.off(signal, listener);
    }
  });

  it('starts the role with the parsed configuration, installs the shutdown, logs and prints the banner', async () => {
    const io = fakeIo();
    const runtime = fakeRuntime();
    const started: unknown[] = [];
    await runServiceProcess(
      {
        service: 'demo',
        loadConfig: () => ({ smtp: false }),
        start: async (config, role) => (started.push([config, role]), runtime),
        logFields: (_rt, config) => ({ mail: config.smtp ? 'smtp' : 'dir' }),
        bannerLines: () => ['', '  demo token: t'],
      },
      'api',
      io.handle,
    );
    expect(started).toEqual([[{ smtp: false }, 'api']]);
    expect(runtime.logged).toEqual([[{ role: 'api', url: runtime.url, database: 'postgres://db/demo', jobs: 'in-process', mail: 'dir' }, 'demo started']]);
    expect(io.written).toEqual([startupBanner('demo', runtime, ['', '  demo token: t'])]);
    expect(signalListeners().length).toBe(before.length + 2);
  });

  it('never starts anything when the configuration is bad', async () => {
    const io = fakeIo();
    const start = jest.fn();
    const run = runServiceProcess({ service: 'demo', loadConfig: () => { throw new Error('bad'); }, start }, 'all', io.handle);
    await expect(run).rejects.toEqual(new Exited(2));
    expect(start).not.toHaveBeenCalled();
    expect(io.errors).toEqual(['demo: bad']);
  });
});

describe('a signal while the service starts', () => {
  it('is held until the shutdown is installed: the runtime is closed and the process exits 0', async () => {
    const child = spawn(process.execPath, [join(__dirname, '__fixtures__', 'slow-start-process.js')], {
      env: { PATH: process.env.PATH, START_MS: '1500' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.setEncoding('utf8');
    const started = new Promise<void>((resolve) =>
      child.stdout!.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('starting')) resolve();
      }),
    );
    const exited = once(child, 'exit');
    await started;
    child.kill('SIGTERM'); // during start: Node's default would kill it with no shutdown
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(out.split('\n').filter(Boolean)).toEqual(['starting', 'closed']);
  });
});
