/**
 * The gateway, for real: renders infra/gateway/default.conf.template the way the nginx
 * image does (sources infra/gateway/upstream-servers.envsh, which turns ESIGN_UPSTREAMS and
 * WILDFIRE_UPSTREAMS into `server` lines, then envsubst of ESIGN_UPSTREAM_SERVERS,
 * WILDFIRE_UPSTREAM_SERVERS, GATEWAY_PORT), runs it under the system's nginx (Debian's
 * nginx-light, /usr/sbin/nginx) in a temporary prefix, and sends HTTP through it.
 *
 * 1. Against two header-recording upstreams written here: what the gateway adds
 *    (X-Forwarded-*, X-Request-Id), prefix stripping, redirect rewriting, and the JSON
 *    bodies of the errors nginx generates itself (502, 413). GATEWAY_TRUSTED_PROXIES is
 *    127.0.0.2/32: requests sent from 127.0.0.2 come "through the ingress" (their
 *    X-Forwarded-For names the client), requests from 127.0.0.1 straight from a client.
 *    The JSON access log: signing token masked, no query string, no user agent.
 * 1b. Two replicas of one service: round-robin, passive failover when one is down, and a
 *    POST a replica dropped is not replayed on the other (only idempotent requests are).
 * 2. Against the real services started from their compiled output
 *    (`node services/<svc>/dist/main.js`, embedded mode: no database, Redis or SMTP URL):
 *    host and path routing, prefix stripping to /health, /openapi.json, /metrics,
 *    X-Request-Id echoed by the services through the gateway, and two clients behind the
 *    ingress counted in separate tool-call buckets by esign.
 *
 * Every process started here is stopped in afterAll, also when a test or beforeAll fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const TEMPLATE = path.join(__dirname, 'default.conf.template');
const UPSTREAM_SCRIPT = path.join(__dirname, 'upstream-servers.envsh');
const TRUSTED_PROXIES_SCRIPT = path.join(__dirname, 'trusted-proxies.envsh');
const SERVICE_ENTRY = {
  esign: path.join(REPO_ROOT, 'services', 'esign', 'dist', 'main.js'),
  wildfire: path.join(REPO_ROOT, 'services', 'wildfire', 'dist', 'main.js'),
} as const;
type ServiceName = keyof typeof SERVICE_ENTRY;

const STARTUP_TIMEOUT_MS = 120_000;
const POLL_INTERVAL_MS = 250;
const MAX_POLLS = Math.floor((STARTUP_TIMEOUT_MS - 10_000) / POLL_INTERVAL_MS);

jest.setTimeout(STARTUP_TIMEOUT_MS);

// ---------------------------------------------------------------------------------------
// processes

interface Proc {
  name: string;
  child: ChildProcess;
  /** Last lines of stdout+stderr, for failure messages. */
  output: string[];
  logFile?: string;
  exited: Promise<void>;
}

const live = new Set<Proc>();
const tempDirs: string[] = [];

// Last resort if jest tears the worker down without running afterAll.
process.once('exit', () => {
  for (const p of live) p.child.kill('SIGKILL');
});

function startProcess(
  name: string,
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; logFile?: string },
): Proc {
  // nginx opens /dev/stdout for its access log, which fails (ENXIO) when stdout is the
  // socket node uses for 'pipe'; such processes write to a regular file instead.
  const logFd = options.logFile ? fs.openSync(options.logFile, 'a') : undefined;
  const stdio: ('ignore' | 'pipe' | number)[] = logFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', logFd, logFd];
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio });
  if (logFd !== undefined) fs.closeSync(logFd);
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      output.push(line);
      if (output.length > 200) output.shift();
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => {
    // 'close', not 'exit': fires once the output has been read to the end.
    child.once('close', () => resolve());
    child.once('error', (err) => {
      output.push(`spawn error: ${err.message}`);
      resolve();
    });
  });
  const proc: Proc = { name, child, output, logFile: options.logFile, exited };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

/** Last lines the process wrote. */
function tail(p: Proc, lines = 40): string {
  let out = p.output;
  if (p.logFile) {
    try {
      out = fs.readFileSync(p.logFile, 'utf8').split('\n').filter((l) => l.trim() !== '');
    } catch {
      /* not written yet */
    }
  }
  return out.slice(-lines).join('\n');
}

function hasExited(p: Proc): boolean {
  return p.child.exitCode !== null || p.child.signalCode !== null;
}

function describeExit(p: Proc): string {
  return `${p.name} exited (code ${p.child.exitCode}, signal ${p.child.signalCode}). Last output:\n${tail(p)}`;
}

/** Resolves true if `p` closed within `ms`. */
async function closedWithin(p: Proc, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    p.exited.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return closed;
}

async function stopProcess(p: Proc, graceMs: number): Promise<void> {
  if (p.child.pid === undefined) return;
  if (!hasExited(p)) p.child.kill('SIGTERM');
  if (await closedWithin(p, graceMs)) return;
  if (!hasExited(p)) p.child.kill('SIGKILL');
  if (!(await closedWithin(p, 5_000))) {
    // A grandchild still holds the output pipes open: stop reading them.
    p.child.stdout?.destroy();
    p.child.stderr?.destroy();
  }
  live.delete(p);
}

function makeTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------
// HTTP

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => any;
}

interface RequestOptions {
  host?: string;
  method?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** The loopback address the request comes from (127.0.0.1 unless given): the whole of 127/8 is local. */
  from?: string;
}

/** METRICS_TOKEN of both services: /metrics answers only with it. */
const GATEWAY_METRICS_TOKEN = 'gateway-test-metrics-token-0123456789';

/** node:http rather than fetch: fetch does not let a caller choose the Host header. */
function request(port: number, urlPath: string, options: RequestOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? 'localhost', connection: 'close', ...options.headers },
        localAddress: options.from ?? '127.0.0.1',
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => {
              try {
                return JSON.parse(text);
              } catch {
                throw new Error(`not JSON (status ${res.statusCode}): ${text.slice(0, 500)}`);
              }
            },
          });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`timeout: ${urlPath}`)));
    req.on('error', reject);
    req.end();
  });
}

/** Polls `urlPath` until it answers 200, a bounded number of times; fails fast if `proc` dies. */
async function waitForOk(port: number, urlPath: string, proc: Proc): Promise<void> {
  let last = 'no answer';
  for (let attempt = 0; attempt < MAX_POLLS; attempt++) {
    if (hasExited(proc)) {
      await proc.exited;
      throw new Error(describeExit(proc));
    }
    try {
      const res = await request(port, urlPath, { timeoutMs: 2_000 });
      if (res.status === 200) return;
      last = `status ${res.status}: ${res.text.slice(0, 300)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await delay(POLL_INTERVAL_MS);
  }
  throw new Error(`${proc.name} did not answer 200 on ${urlPath} after ${MAX_POLLS} attempts (last: ${last}). Output:\n${tail(proc)}`);
}

// ---------------------------------------------------------------------------------------
// nginx

function findNginx(): string {
  const candidates = [process.env.NGINX_BIN, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(path.join(dir, 'nginx'));
  for (const c of candidates) {
    if (!c) continue;
    try {
      fs.accessSync(c, fs.constants.X_OK);
      return c;
    } catch {
      /* next */
    }
  }
  throw new Error('nginx not found (install Debian/Ubuntu package nginx-light or nginx, or set NGINX_BIN)');
}

const PLACEHOLDERS = ['ESIGN_UPSTREAM_SERVERS', 'WILDFIRE_UPSTREAM_SERVERS', 'GATEWAY_PORT', 'GATEWAY_REAL_IP_FROM', 'GATEWAY_TRUSTED_HOPS'] as const;
type TemplateVars = Record<(typeof PLACEHOLDERS)[number], string>;

interface ScriptResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Sources upstream-servers.envsh in /bin/sh the way the image's entrypoint does, with only
 * the given environment, and prints the two variables it exports (NUL-separated).
 */
function sourceUpstreamScript(env: Record<string, string>): ScriptResult {
  const res = spawnSync(
    '/bin/sh',
    ['-c', '. "$1" && printf "%s\\0%s" "$ESIGN_UPSTREAM_SERVERS" "$WILDFIRE_UPSTREAM_SERVERS"', 'sh', UPSTREAM_SCRIPT],
    { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, encoding: 'utf8', timeout: 10_000 },
  );
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** Sources trusted-proxies.envsh the same way; prints GATEWAY_REAL_IP_FROM and GATEWAY_TRUSTED_HOPS (NUL-separated). */
function sourceTrustedProxiesScript(env: Record<string, string>): ScriptResult {
  const res = spawnSync(
    '/bin/sh',
    ['-c', '. "$1" && printf "%s\\0%s" "$GATEWAY_REAL_IP_FROM" "$GATEWAY_TRUSTED_HOPS"', 'sh', TRUSTED_PROXIES_SCRIPT],
    { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, encoding: 'utf8', timeout: 10_000 },
  );
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** What the image does with GATEWAY_TRUSTED_PROXIES before envsubst. */
function trustedProxyLines(trustedProxies: string | undefined): { realIpFrom: string; trustedHops: string } {
  const res = sourceTrustedProxiesScript(trustedProxies === undefined ? {} : { GATEWAY_TRUSTED_PROXIES: trustedProxies });
  if (res.status !== 0) throw new Error(`trusted-proxies.envsh failed (status ${res.status}): ${res.stderr}`);
  const [realIpFrom, trustedHops] = res.stdout.split('\0');
  return { realIpFrom: realIpFrom!, trustedHops: trustedHops! };
}

/** What the image does with ESIGN_UPSTREAMS / WILDFIRE_UPSTREAMS before envsubst. */
function upstreamServerLines(lists: { esign: string; wildfire: string }): { esign: string; wildfire: string } {
  const res = sourceUpstreamScript({ ESIGN_UPSTREAMS: lists.esign, WILDFIRE_UPSTREAMS: lists.wildfire });
  if (res.status !== 0) throw new Error(`upstream-servers.envsh failed (status ${res.status}): ${res.stderr}`);
  const [esign, wildfire] = res.stdout.split('\0');
  return { esign: esign!, wildfire: wildfire! };
}

/**
 * What the nginx image's 20-envsubst-on-templates.sh does: envsubst restricted to the
 * given variable names, both `${NAME}` and `$NAME` forms; every other `$` is left alone.
 */
function renderTemplate(template: string, vars: TemplateVars): string {
  let out = template;
  for (const name of PLACEHOLDERS) {
    out = out.split('${' + name + '}').join(vars[name]);
    out = out.replace(new RegExp(`\\$${name}(?![A-Za-z0-9_])`, 'g'), () => vars[name]);
  }
  return out;
}

/** Test-only stand-in for the image's /etc/nginx/nginx.conf: no `user`, temp paths under the prefix. */
const WRAPPER_CONF = `
worker_processes 1;
events { worker_connections 1024; }
http {
    default_type application/octet-stream;
    sendfile on;
    keepalive_timeout 65;
    access_log logs/access.log;
    client_body_temp_path tmp/client_body;
    proxy_temp_path tmp/proxy;
    fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;
    include default.conf;
}
`;

interface Gateway {
  port: number;
  proc: Proc;
  /** nginx's stdout and stderr: the JSON access log lines are here. */
  logFile: string;
}

/**
 * `upstreams`: ESIGN_UPSTREAMS / WILDFIRE_UPSTREAMS values (host:port lists);
 * `trustedProxies`: GATEWAY_TRUSTED_PROXIES (unset: the gateway is the edge).
 */
async function startGateway(upstreams: { esign: string; wildfire: string }, trustedProxies?: string): Promise<Gateway> {
  const nginx = findNginx();
  const port = await freePort();
  const prefix = makeTempDir('gateway-nginx-');
  // As root, nginx's workers run as an unprivileged user: they must be able to reach the prefix.
  fs.chmodSync(prefix, 0o755);
  for (const dir of ['conf', 'tmp', 'logs']) fs.mkdirSync(path.join(prefix, dir));

  const servers = upstreamServerLines(upstreams);
  const hops = trustedProxyLines(trustedProxies);
  const rendered = renderTemplate(fs.readFileSync(TEMPLATE, 'utf8'), {
    ESIGN_UPSTREAM_SERVERS: servers.esign,
    WILDFIRE_UPSTREAM_SERVERS: servers.wildfire,
    GATEWAY_PORT: `127.0.0.1:${port}`,
    GATEWAY_REAL_IP_FROM: hops.realIpFrom,
    GATEWAY_TRUSTED_HOPS: hops.trustedHops,
  });
  expect(rendered).not.toMatch(/\$\{/);
  fs.writeFileSync(path.join(prefix, 'conf', 'default.conf'), rendered);
  const conf = path.join(prefix, 'conf', 'nginx.conf');
  fs.writeFileSync(conf, WRAPPER_CONF);

  const globals = `daemon off; pid ${path.join(prefix, 'nginx.pid')}; error_log stderr notice;`;
  const args = ['-p', prefix + path.sep, '-c', conf, '-e', 'stderr', '-g', globals];

  const logFile = path.join(prefix, 'logs', 'nginx.out');
  const checkFd = fs.openSync(path.join(prefix, 'logs', 'nginx-t.out'), 'w+');
  const check = spawnSync(nginx, ['-t', ...args], { stdio: ['ignore', checkFd, checkFd], timeout: 30_000 });
  fs.closeSync(checkFd);
  if (check.status !== 0) {
    const out = fs.readFileSync(path.join(prefix, 'logs', 'nginx-t.out'), 'utf8');
    throw new Error(`nginx -t failed (status ${check.status}, ${check.error?.message ?? 'no spawn error'}):\n${out}`);
  }

  const proc = startProcess(`nginx :${port}`, nginx, args, { logFile });
  await waitForOk(port, '/gateway/health', proc);
  return { port, proc, logFile };
}

/** The JSON access-log line of the request with this X-Request-Id, once nginx has written it (bounded polling). */
async function accessLogLine(gateway: Gateway, requestId: string): Promise<{ raw: string; entry: Record<string, unknown> }> {
  for (let attempt = 0; attempt < MAX_POLLS; attempt++) {
    const raw = fs.readFileSync(gateway.logFile, 'utf8').split('\n').find((l) => l.includes(`"request_id":"${requestId}"`));
    if (raw) return { raw, entry: JSON.parse(raw) as Record<string, unknown> };
    await delay(POLL_INTERVAL_MS);
  }
  throw new Error(`no access-log line for ${requestId} in ${gateway.logFile}:\n${tail(gateway.proc)}`);
}

// ---------------------------------------------------------------------------------------
// a header-recording upstream

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bodyBytes: number;
}

interface Recorder {
  port: number;
  seen: Seen[];
  server: http.Server;
}

/** `dropPrefix`: this recorder also drops the connection on paths starting with it. */
async function startRecorder(name: string, options: { dropPrefix?: string } = {}): Promise<Recorder> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let bodyBytes = 0;
    req.on('data', (c: Buffer) => (bodyBytes += c.length));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyBytes });
      if (req.url?.startsWith('/__drop') || req.url?.endsWith('/__drop') || (options.dropPrefix && req.url?.startsWith(options.dropPrefix))) {
        req.socket.destroy();
        return;
      }
      if (req.url?.startsWith('/__redirect')) {
        res.writeHead(302, { location: '/docs/' }).end();
        return;
      }
      if (req.url?.startsWith('/__big')) {
        // Larger than nginx's in-memory proxy buffers: exercises proxy_temp_path.
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(3 * 1024 * 1024, 0x61));
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-powered-by', 'recorder');
      res.end(JSON.stringify({ upstream: name, method: req.method, url: req.url, headers: req.headers, bodyBytes }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, seen, server };
}

function closeServer(server: http.Server | undefined): Promise<void> {
  if (!server?.listening) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const NGINX_REQUEST_ID = /^[0-9a-f]{32}$/;

/** GATEWAY_TRUSTED_PROXIES of the tests: the "ingress" is 127.0.0.2 (a request sent `from` it). */
const INGRESS = '127.0.0.2';
const INGRESS_RANGE = '127.0.0.2/32';

// ---------------------------------------------------------------------------------------

describe('gateway template under nginx, against header-recording upstreams', () => {
  let gateway: Gateway | undefined;
  let esign: Recorder | undefined;

  beforeAll(async () => {
    esign = await startRecorder('esign');
    // Nothing listens here: every wildfire route must answer the gateway's 502.
    const deadPort = await freePort();
    // 127.0.0.2 plays the ingress in front of the gateway; requests from 127.0.0.1 come
    // straight from a client.
    gateway = await startGateway({ esign: `127.0.0.1:${esign.port}`, wildfire: `127.0.0.1:${deadPort}` }, INGRESS_RANGE);
  });

  afterAll(async () => {
    if (gateway) await stopProcess(gateway.proc, 5_000);
    await closeServer(esign?.server);
    removeTempDirs();
  });

  const gw = () => gateway!.port;
  const lastSeen = () => esign!.seen[esign!.seen.length - 1]!;

  test('the template has no environment-style placeholders besides the five it documents', () => {
    const names = new Set([...fs.readFileSync(TEMPLATE, 'utf8').matchAll(/\$\{?([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    expect([...names].sort()).toEqual([...PLACEHOLDERS].sort());
  });

  test('nginx answers /gateway/health itself, on every host', async () => {
    for (const host of ['localhost', 'esign.example.org', 'wildfire.example.org']) {
      const res = await request(gw(), '/gateway/health', { host });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({ status: 'ok', service: 'gateway' });
      expect(res.headers['x-request-id']).toMatch(NGINX_REQUEST_ID);
    }
  });

  test('/esign/ prefix is stripped and forwarding headers are set', async () => {
    const res = await request(gw(), '/esign/health?probe=1', {
      host: 'localhost:8080',
      headers: { 'x-forwarded-for': '203.0.113.66', 'x-request-id': 'client-id.42:abc' },
    });
    expect(res.status).toBe(200);
    expect(res.json().upstream).toBe('esign');
    const seen = lastSeen();
    expect(seen.url).toBe('/health?probe=1');
    // The edge replaces, never appends to, a client-supplied X-Forwarded-For.
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['x-real-ip']).toBe('127.0.0.1');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
    expect(seen.headers['x-forwarded-host']).toBe('localhost');
    expect(seen.headers['x-forwarded-prefix']).toBe('/esign');
    expect(seen.headers['host']).toBe('localhost');
    expect(seen.headers['x-request-id']).toBe('client-id.42:abc');
    // Upstream fingerprinting header removed.
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  test('behind the trusted ingress, each client is the address the ingress put last in X-Forwarded-For', async () => {
    for (const [sent, client] of [
      ['198.51.100.7', '198.51.100.7'],
      // What the client wrote itself comes first; the ingress appends the peer it saw.
      ['203.0.113.66, 198.51.100.8', '198.51.100.8'],
      // A chain of trusted hops is skipped (real_ip_recursive).
      ['198.51.100.9, 127.0.0.2', '198.51.100.9'],
    ] as const) {
      const res = await request(gw(), '/firma/documentos/abc', { from: INGRESS, headers: { 'x-forwarded-for': sent } });
      expect(res.status).toBe(200);
      // One address, the client's: the services trust the gateway and take it as the client.
      expect({ sent, xff: lastSeen().headers['x-forwarded-for'], realIp: lastSeen().headers['x-real-ip'] }).toEqual({ sent, xff: client, realIp: client });
    }
  });

  test('the trusted ingress passes the original scheme and port on; anything else but http or https is ignored', async () => {
    await request(gw(), '/firma/documentos/abc', { from: INGRESS, headers: { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https', 'x-forwarded-port': '443' } });
    expect(lastSeen().headers['x-forwarded-proto']).toBe('https');
    expect(lastSeen().headers['x-forwarded-port']).toBe('443');

    await request(gw(), '/firma/documentos/abc', { from: INGRESS, headers: { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'javascript', 'x-forwarded-port': '443; x' } });
    expect(lastSeen().headers['x-forwarded-proto']).toBe('http');
    expect(lastSeen().headers['x-forwarded-port']).toBe(String(gw()));
  });

  test('a peer that is not a trusted hop cannot choose its address, scheme or port', async () => {
    const res = await request(gw(), '/firma/documentos/abc', {
      from: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.7', 'x-real-ip': '198.51.100.7', 'x-forwarded-proto': 'https', 'x-forwarded-port': '443' },
    });
    expect(res.status).toBe(200);
    expect(lastSeen().headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(lastSeen().headers['x-real-ip']).toBe('127.0.0.1');
    expect(lastSeen().headers['x-forwarded-proto']).toBe('http');
    expect(lastSeen().headers['x-forwarded-port']).toBe(String(gw()));
  });

  test('the access log masks the signing token and verification ids, drops query strings and the user agent, and keeps only the client network', async () => {
    const token = 'Tok3n_Secret-abcdefghijklmnopqrstuvwxyz0123456';
    const agent = 'Mozilla/5.0 (X11; Linux) TestAgent/27.1';
    const cases: [string, string][] = [
      [`/firma/firmar/${token}`, '/firma/firmar/***'],
      [`/firma/firmar/${token}/paginas/2?w=800`, '/firma/firmar/***/paginas/2'],
      [`/FIRMA/Firmar/${token}/otp`, '/FIRMA/Firmar/***/otp'],
      // The path esign was sent (that location strips the prefix with a rewrite).
      [`/esign/firma/firmar/${token}/documento`, '/firma/firmar/***/documento'],
      [`//firma//firmar/%54${token.slice(1)}/confirmar`, '/firma/firmar/***/confirmar'],
      ['/verificar/0b7e7c52-9d9a-4d35-8d6f-5b0d2a9f6c11', '/verificar/***'],
      ['/verificar?document_id=0b7e7c52-9d9a-4d35-8d6f-5b0d2a9f6c11', '/verificar'],
      [`/api/v3/m1?municipio_id=28079&api_key=pk_live_QueryKeyInTheUrl0123456789`, '/api/v3/m1'],
    ];
    const lines: string[] = [];
    for (const [i, [sent, logged]] of cases.entries()) {
      const id = `log-mask-${i}`;
      await request(gw(), sent, { from: INGRESS, headers: { 'x-request-id': id, 'user-agent': agent, 'x-forwarded-for': '198.51.100.77' } });
      const { raw, entry } = await accessLogLine(gateway!, id);
      lines.push(raw);
      expect({ sent, path: entry.path }).toEqual({ sent, path: logged });
      expect(entry.client_net).toBe('198.51.100.0/24');
    }
    const log = lines.join('\n');
    expect(log).not.toContain(token.slice(4, 30));
    expect(log).not.toContain('0b7e7c52');
    expect(log).not.toContain('QueryKeyInTheUrl');
    expect(log).not.toContain('TestAgent');
    expect(log).not.toContain('198.51.100.77');
    expect(log).not.toMatch(/user_agent|remote_addr/);
    // The service still gets the path it needs; only the log is masked.
    expect(esign!.seen.some((r) => r.url === `/firma/firmar/${token}`)).toBe(true);
    for (const [i, [xff, net]] of [
      ['2001:db8:1:2::5', '2001:db8:1::/48'],
      ['2001:db8::1', '2001:db8::/48'],
    ].entries()) {
      await request(gw(), '/esign/health', { from: INGRESS, headers: { 'x-request-id': `log-v6-${i}`, 'x-forwarded-for': xff! } });
      expect((await accessLogLine(gateway!, `log-v6-${i}`)).entry.client_net).toBe(net);
    }
    // A signing request that fails at the gateway (esign drops it: 502), by path and by
    // host: nginx's error log would quote its request line, token included.
    for (const [i, [host, p]] of [
      ['localhost', `/firma/firmar/${token}/__drop`],
      ['esign.example.org', `/firma/Firmar/${token}/__drop`],
      ['localhost', `/esign/firma/firmar/${token}/__drop`],
    ].entries()) {
      const failed = await request(gw(), p!, { host, headers: { 'x-request-id': `log-502-${i}` } });
      expect(failed.status).toBe(502);
      expect(failed.json()).toMatchObject({ code: 'BAD_GATEWAY' });
      expect((await accessLogLine(gateway!, `log-502-${i}`)).entry).toMatchObject({ path: expect.stringMatching(/^\/firma\/firmar\/\*\*\*\/__drop$/i), status: 502 });
    }
    // Under the prefix the service gets the path without it, and the prefix announced
    // (nginx may have tried a dropped GET twice: every attempt is checked).
    const reached = (id: string) => esign!.seen.filter((r) => r.headers['x-request-id'] === id);
    expect(reached('log-502-2').length).toBeGreaterThan(0);
    for (const r of reached('log-502-2')) expect([r.url, r.headers['x-forwarded-prefix']]).toEqual([`/firma/firmar/${token}/__drop`, '/esign']);
    for (const r of reached('log-502-0')) expect(r.headers['x-forwarded-prefix']).toBeUndefined();
    expect(fs.readFileSync(gateway!.logFile, 'utf8')).not.toContain(token.slice(4, 30));
    // Other failures are still in the error log.
    await request(gw(), '/esign/__drop', { headers: { 'x-request-id': 'log-502-other' } });
    await accessLogLine(gateway!, 'log-502-other');
    expect(fs.readFileSync(gateway!.logFile, 'utf8')).toMatch(/upstream prematurely closed connection.*request: "GET \/esign\/__drop/);

    // A direct client: its network too, never its address.
    await request(gw(), '/esign/health', { headers: { 'x-request-id': 'log-direct' } });
    expect((await accessLogLine(gateway!, 'log-direct')).entry.client_net).toBe('127.0.0.0/24');
  });

  test('a missing or malformed X-Request-Id is replaced by a generated one', async () => {
    await request(gw(), '/esign/health');
    const generated = lastSeen().headers['x-request-id'];
    expect(generated).toMatch(NGINX_REQUEST_ID);

    await request(gw(), '/esign/health', { headers: { 'x-request-id': 'has spaces and/slashes' } });
    expect(lastSeen().headers['x-request-id']).toMatch(NGINX_REQUEST_ID);
    expect(lastSeen().headers['x-request-id']).not.toBe(generated);
  });

  test.each(['/firma/documentos/abc', '/admin/tenants', '/verificar/xyz'])('default host routes %s to esign unchanged', async (p) => {
    const res = await request(gw(), p);
    expect(res.json().upstream).toBe('esign');
    expect(lastSeen().url).toBe(p);
    expect(lastSeen().headers['x-forwarded-prefix']).toBeUndefined();
  });

  test('host esign.* routes every path to esign unchanged', async () => {
    const res = await request(gw(), '/esign/health', { host: 'esign.example.org' });
    expect(res.json().upstream).toBe('esign');
    expect(lastSeen().url).toBe('/esign/health');
    expect(lastSeen().headers['x-forwarded-prefix']).toBeUndefined();
    expect(lastSeen().headers['host']).toBe('esign.example.org');
  });

  test('redirects from a prefixed service keep the prefix', async () => {
    const res = await request(gw(), '/esign/__redirect');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/esign/docs/');
  });

  test('an unreachable wildfire gives a 502 in the wildfire envelope, by host and by path', async () => {
    for (const [host, p] of [
      ['localhost', '/api/v1/m1'],
      ['localhost', '/ecosystem'],
      ['localhost', '/wildfire/health'],
      ['wildfire.example.org', '/health'],
    ] as const) {
      const res = await request(gw(), p, { host, headers: { 'x-request-id': 'wf-502-check' } });
      expect(res.status).toBe(502);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.headers['x-request-id']).toBe('wf-502-check');
      expect(res.json()).toEqual({
        error: { code: 'BAD_GATEWAY', message: expect.any(String), param: null, request_id: 'wf-502-check' },
      });
    }
  });

  test('an upstream that drops the connection gives a 502 in the esign envelope', async () => {
    const res = await request(gw(), '/esign/__drop');
    expect(res.status).toBe(502);
    const body = res.json();
    expect(body).toEqual({ detail: expect.any(String), code: 'BAD_GATEWAY', request_id: expect.stringMatching(NGINX_REQUEST_ID) });
    expect(res.headers['x-request-id']).toBe(body.request_id);
  });

  test('an upload of 5 MB is buffered by nginx and reaches the service whole; a 3 MB answer comes back whole', async () => {
    const upload = Buffer.alloc(5 * 1024 * 1024, 0x25);
    const res = await new Promise<Reply>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: gw(),
          path: '/firma/documentos',
          method: 'POST',
          headers: { host: 'localhost', 'content-type': 'application/pdf', 'content-length': String(upload.length) },
          agent: false,
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: r.statusCode ?? 0, headers: r.headers, text, json: () => JSON.parse(text) });
          });
        },
      );
      req.on('error', reject);
      req.end(upload);
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ upstream: 'esign', method: 'POST', url: '/firma/documentos', bodyBytes: upload.length });

    const big = await request(gw(), '/esign/__big');
    expect(big.status).toBe(200);
    expect(big.text.length).toBe(3 * 1024 * 1024);
  });

  test('bodies over 30 MB are refused by the gateway with a JSON 413', async () => {
    const res = await new Promise<Reply>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: gw(),
          path: '/firma/documentos',
          method: 'POST',
          headers: { host: 'localhost', 'content-type': 'application/pdf', 'content-length': String(31 * 1024 * 1024) },
          agent: false,
        },
        (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => {
            req.destroy();
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: r.statusCode ?? 0, headers: r.headers, text, json: () => JSON.parse(text) });
          });
        },
      );
      req.on('error', reject);
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.flushHeaders(); // announce the size, send nothing: nginx decides on Content-Length
    });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'PAYLOAD_TOO_LARGE', request_id: expect.any(String) });
  });

  test('an unknown path on the default host is a gateway 404 in JSON', async () => {
    const res = await request(gw(), '/nope');
    expect(res.status).toBe(404);
    expect(res.json().error.code).toBe('NO_ROUTE');
  });
});

describe('gateway with two replicas of a service', () => {
  const gateways: Gateway[] = [];
  const recorders: Recorder[] = [];
  let deadWildfire = 0;

  beforeAll(async () => {
    deadWildfire = await freePort();
  });

  afterAll(async () => {
    await Promise.all(gateways.map((g) => stopProcess(g.proc, 5_000)));
    await Promise.all(recorders.map((r) => closeServer(r.server)));
    removeTempDirs();
  });

  /** A fresh nginx (fresh round-robin and failure state) in front of esign replicas. */
  async function gatewayFor(esignUpstreams: string[]): Promise<number> {
    const gateway = await startGateway({ esign: esignUpstreams.join(' '), wildfire: `127.0.0.1:${deadWildfire}` });
    gateways.push(gateway);
    return gateway.port;
  }

  async function recorder(name: string, options: { dropPrefix?: string } = {}): Promise<Recorder> {
    const r = await startRecorder(name, options);
    recorders.push(r);
    return r;
  }

  const count = (r: Recorder, method: string, prefix: string) => r.seen.filter((s) => s.method === method && s.url.startsWith(prefix)).length;

  test('upstream-servers.envsh turns a space- or comma-separated list into one server line per replica', () => {
    const res = sourceUpstreamScript({ ESIGN_UPSTREAMS: 'esign-api-1:8001, esign-api-2:8001', WILDFIRE_UPSTREAM: 'wildfire-api:8002' });
    expect(res.status).toBe(0);
    const [esignLines, wildfireLines] = res.stdout.split('\0');
    expect(esignLines!.split('\n').map((l) => l.trim())).toEqual([
      'server esign-api-1:8001 max_fails=1 fail_timeout=10s;',
      'server esign-api-2:8001 max_fails=1 fail_timeout=10s;',
    ]);
    // The single-address variable of earlier releases still works.
    expect(wildfireLines).toBe('server wildfire-api:8002 max_fails=1 fail_timeout=10s;');
  });

  test.each([
    ['', /ESIGN_UPSTREAMS is empty/],
    ['esign-api-1:8001;include /etc/passwd', /ESIGN_UPSTREAMS: 'esign-api-1:8001;include' is not host:port/],
    ['esign-api-1', /is not host:port/],
    ['esign-api-1:8001 }', /'}' is not host:port/],
  ])('upstream-servers.envsh stops the container on ESIGN_UPSTREAMS=%j', (value, message) => {
    const res = sourceUpstreamScript({ ESIGN_UPSTREAMS: value, WILDFIRE_UPSTREAMS: 'wildfire-api:8002' });
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
  });

  test('requests alternate between the two replicas (round-robin)', async () => {
    const [a, b] = [await recorder('esign-a'), await recorder('esign-b')];
    const port = await gatewayFor([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]);
    const servedBy: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await request(port, `/esign/rr/${i}`);
      expect(res.status).toBe(200);
      servedBy.push(res.json().upstream);
    }
    expect(servedBy.filter((n) => n === 'esign-a')).toHaveLength(5);
    expect(servedBy.filter((n) => n === 'esign-b')).toHaveLength(5);
    for (let i = 1; i < servedBy.length; i++) expect(servedBy[i]).not.toBe(servedBy[i - 1]);
  });

  test('with one replica down, the other serves every GET and POST, each exactly once', async () => {
    const a = await recorder('esign-a');
    const down = await freePort(); // nothing listens: connection refused, nothing was sent
    const port = await gatewayFor([`127.0.0.1:${a.port}`, `127.0.0.1:${down}`]);
    for (let i = 0; i < 10; i++) {
      const method = i % 2 === 0 ? 'GET' : 'POST';
      const res = await request(port, `/firma/failover/${i}`, { method });
      expect({ i, status: res.status }).toEqual({ i, status: 200 });
      expect(res.json()).toMatchObject({ upstream: 'esign-a', method });
    }
    expect(count(a, 'GET', '/firma/failover/')).toBe(5);
    expect(count(a, 'POST', '/firma/failover/')).toBe(5);
  });

  test('a GET a replica dropped is passed to the other; a POST it may have executed is not', async () => {
    const a = await recorder('esign-a');
    const b = await recorder('esign-b', { dropPrefix: '/firma/flaky' });
    const replicas = [`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`];

    // Two GETs: round-robin sends one of them to b, which drops it after reading it.
    const getPort = await gatewayFor(replicas);
    for (let i = 0; i < 2; i++) {
      const res = await request(getPort, `/firma/flaky/get-${i}`);
      expect(res.status).toBe(200);
      expect(res.json().upstream).toBe('esign-a');
    }
    expect(count(b, 'GET', '/firma/flaky/')).toBe(1);
    expect(count(a, 'GET', '/firma/flaky/')).toBe(2);

    // Two POSTs through a fresh gateway (b is not yet marked failed there): the one b
    // dropped is answered 502 and never reaches a.
    const postPort = await gatewayFor(replicas);
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await request(postPort, `/firma/flaky/post-${i}`, { method: 'POST' });
      statuses.push(res.status);
      if (res.status === 502) expect(res.json()).toMatchObject({ code: 'BAD_GATEWAY' });
      else expect(res.json()).toMatchObject({ upstream: 'esign-a', method: 'POST' });
    }
    expect(statuses.sort()).toEqual([200, 502]);
    expect(count(b, 'POST', '/firma/flaky/')).toBe(1);
    expect(count(a, 'POST', '/firma/flaky/')).toBe(1);
  });
});

describe('trusted-proxies.envsh', () => {
  test('turns GATEWAY_TRUSTED_PROXIES (spaces or commas, IPv4 and IPv6) into set_real_ip_from and geo lines', () => {
    const res = sourceTrustedProxiesScript({ GATEWAY_TRUSTED_PROXIES: '10.42.0.0/16, 192.0.2.10 fd00:42::/64' });
    expect(res.status).toBe(0);
    const [realIp, geo] = res.stdout.split('\0').map((block) => block!.split('\n').map((l) => l.trim()));
    expect(realIp).toEqual(['set_real_ip_from 10.42.0.0/16;', 'set_real_ip_from 192.0.2.10;', 'set_real_ip_from fd00:42::/64;']);
    expect(geo).toEqual(['10.42.0.0/16 1;', '192.0.2.10 1;', 'fd00:42::/64 1;']);
  });

  test('unset or empty, it trusts nobody: the gateway is the edge', () => {
    for (const env of [{}, { GATEWAY_TRUSTED_PROXIES: '' }] as Record<string, string>[]) {
      const res = sourceTrustedProxiesScript(env);
      expect(res.status).toBe(0);
      expect(res.stdout).not.toMatch(/set_real_ip_from|\b1;/);
    }
  });

  test.each([
    ['0.0.0.0/0', /would trust every client/],
    ['::/0', /would trust every client/],
    ['10.0.0.0/8;include /etc/passwd', /'10.0.0.0\/8;include' is not an IP address or CIDR range/],
    ['ingress-nginx.local', /is not an IP address/],
    ['10.0.0.0/8 }', /'}' is not an IP address/],
  ])('stops the container on GATEWAY_TRUSTED_PROXIES=%j', (value, message) => {
    const res = sourceTrustedProxiesScript({ GATEWAY_TRUSTED_PROXIES: value });
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
  });
});

describe('gateway in front of the real services (embedded mode)', () => {
  let gateway: Gateway | undefined;
  const services: Partial<Record<ServiceName, Proc>> = {};

  function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) {
      // Embedded mode: no database, Redis, SMTP or TSA from the surrounding environment.
      if (/^(ESIGN_|WILDFIRE_)/.test(k)) continue;
      if (['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'TSA_URL', 'HOST', 'PORT', 'DATA_DIR', 'LOG_LEVEL', 'TRUSTED_PROXIES', 'NODE_ENV'].includes(k)) continue;
      env[k] = v;
    }
    return { ...env, ...extra };
  }

  beforeAll(async () => {
    for (const entry of Object.values(SERVICE_ENTRY)) {
      if (!fs.existsSync(entry)) throw new Error(`${entry} does not exist: build first (npm run build, i.e. tsc -b)`);
    }
    const [esignPort, wildfirePort] = [await freePort(), await freePort()];
    // Each service keeps its embedded database under DATA_DIR/<service>/ (the PGlite
    // socket path there must stay short: a short temp dir, shared by both).
    const dataDir = makeTempDir('gw-data-');
    const common = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', TRUSTED_PROXIES: '127.0.0.1/32', METRICS_TOKEN: GATEWAY_METRICS_TOKEN };

    services.esign = startProcess('esign', process.execPath, [SERVICE_ENTRY.esign], {
      cwd: REPO_ROOT,
      // A small tool-call budget per client, so a test can use one up.
      env: serviceEnv({ ...common, ESIGN_PORT: String(esignPort), DATA_DIR: dataDir, ESIGN_TOOLS_RATE_LIMIT: String(TOOLS_LIMIT) }),
    });
    services.wildfire = startProcess('wildfire', process.execPath, [SERVICE_ENTRY.wildfire], {
      cwd: REPO_ROOT,
      env: serviceEnv({ ...common, WILDFIRE_PORT: String(wildfirePort), DATA_DIR: dataDir }),
    });
    await Promise.all([waitForOk(esignPort, '/health', services.esign), waitForOk(wildfirePort, '/health', services.wildfire)]);

    gateway = await startGateway({ esign: `127.0.0.1:${esignPort}`, wildfire: `127.0.0.1:${wildfirePort}` }, INGRESS_RANGE);
  }, STARTUP_TIMEOUT_MS);

  afterAll(async () => {
    const stops: Promise<void>[] = [];
    if (gateway) stops.push(stopProcess(gateway.proc, 5_000));
    for (const p of Object.values(services)) if (p) stops.push(stopProcess(p, 15_000));
    await Promise.all(stops);
    removeTempDirs();
  }, 40_000);

  const gw = () => gateway!.port;
  const TOOLS_LIMIT = 3;

  async function health(urlPath: string, host: string, service: ServiceName) {
    const res = await request(gw(), urlPath, { host });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.service).toBe(service);
    expect(body.status).toBe('ok');
  }

  test('routes by host name: esign.* and wildfire.*', async () => {
    await health('/health', 'esign.localhost', 'esign');
    await health('/health', 'wildfire.localhost', 'wildfire');
    await health('/health', 'esign.example.org:8080', 'esign');
  });

  test('routes /esign/ and /wildfire/ prefixes on the default host, stripping them', async () => {
    await health('/esign/health', 'localhost', 'esign');
    await health('/wildfire/health', 'localhost', 'wildfire');
  });

  test.each(['esign', 'wildfire'] as const)('%s /openapi.json and /metrics are reachable through the prefix', async (svc) => {
    const spec = await request(gw(), `/${svc}/openapi.json`);
    expect(spec.status).toBe(200);
    expect(String(spec.json().openapi)).toMatch(/^3\./);

    expect((await request(gw(), `/${svc}/metrics`)).status).toBe(401);
    const metrics = await request(gw(), `/${svc}/metrics`, { headers: { authorization: `Bearer ${GATEWAY_METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^# (HELP|TYPE) /m);
  });

  test('/firma/... reaches esign (its 404 envelope), with the client request id', async () => {
    const res = await request(gw(), '/firma/anything-that-does-not-exist', { headers: { 'x-request-id': 'gw-test-firma-1' } });
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({ detail: expect.any(String), code: 'NOT_FOUND', request_id: 'gw-test-firma-1' });
    expect(res.headers['x-request-id']).toBe('gw-test-firma-1');
  });

  test('/api/v3/m1 reaches wildfire (its error envelope), with the client request id', async () => {
    const res = await request(gw(), '/api/v3/m1', { headers: { 'x-request-id': 'gw-test-wildfire-1' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const body = res.json();
    expect(body.error).toEqual(expect.objectContaining({ code: expect.any(String), request_id: 'gw-test-wildfire-1' }));
    expect(res.headers['x-request-id']).toBe('gw-test-wildfire-1');
  });

  test('X-Request-Id: echoed when sent, generated by the gateway and echoed when absent', async () => {
    for (const [host, p] of [
      ['localhost', '/esign/health'],
      ['wildfire.localhost', '/health'],
    ] as const) {
      const sent = `gw-test-${Math.random().toString(16).slice(2)}`;
      const echoed = await request(gw(), p, { host, headers: { 'x-request-id': sent } });
      expect(echoed.headers['x-request-id']).toBe(sent);

      const generated = await request(gw(), p, { host });
      expect(generated.headers['x-request-id']).toMatch(NGINX_REQUEST_ID);
    }
  });

  test('two clients behind the ingress get separate tool buckets at esign, and a direct client cannot spend another\'s', async () => {
    // An anonymous tool call is counted per client address before its form is read: an
    // empty POST is refused (4xx) after it was counted, or answered 429 once over budget.
    const call = (from: string, client: string) => request(gw(), '/firma/tools/info', { method: 'POST', from, headers: { 'x-forwarded-for': client } });

    const first: { status: number; remaining: string | undefined }[] = [];
    for (let i = 0; i <= TOOLS_LIMIT; i++) {
      const res = await call(INGRESS, '198.51.100.10');
      first.push({ status: res.status, remaining: res.headers['x-ratelimit-remaining'] as string | undefined });
    }
    expect(first.slice(0, TOOLS_LIMIT).map((r) => r.remaining)).toEqual(['2', '1', '0']);
    for (const r of first.slice(0, TOOLS_LIMIT)) expect(r.status).not.toBe(429);
    expect(first[TOOLS_LIMIT]!.status).toBe(429);

    // Another client through the same ingress: its own, full bucket.
    const other = await call(INGRESS, '198.51.100.20');
    expect(other.status).not.toBe(429);
    expect(other.status).toBeLessThan(500);
    expect(other.headers['x-ratelimit-remaining']).toBe('2');

    // A client reaching the gateway directly and naming 198.51.100.20 is counted as itself.
    const spoof = await call('127.0.0.1', '198.51.100.20');
    expect(spoof.headers['x-ratelimit-remaining']).toBe('2');
    expect((await call(INGRESS, '198.51.100.20')).headers['x-ratelimit-remaining']).toBe('1');
  });

  test('/gateway/health is answered by nginx', async () => {
    const res = await request(gw(), '/gateway/health');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', service: 'gateway' });
  });

  test('the services are still running', () => {
    for (const p of Object.values(services)) if (p && hasExited(p)) throw new Error(describeExit(p));
  });
});
