/**
 * `npm ci` runs the install scripts of our dependencies. One of them, @scarf/scarf (pulled in by
 * swagger-ui-dist), reports every install to its vendor unless the root package opts out. The
 * root package.json's `scarfSettings.enabled: false` is that opt-out, and its `skipTraversal: true`
 * makes scarf read it from the root package.json rather than through `npm ls`, which scarf runs
 * with a 3 s limit (on a loaded machine `npm ls` ran out of it: the script then failed before it
 * read the opt-out, and sent nothing for the wrong reason). This test runs scarf's own
 * install script exactly as npm does (INIT_CWD is the root, npm's environment), pointed at a
 * loopback receiver through its documented SCARF_LOCAL_PORT, and checks that nothing is sent.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const SCARF = path.join(ROOT, 'node_modules/@scarf/scarf/report.js');

jest.setTimeout(60_000);

function runScarf(port: number): Promise<{ code: number | null; output: string }> {
  // The environment npm gives an install script, less any opt-out the developer's shell may carry.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  Object.assign(env, {
    INIT_CWD: ROOT,
    npm_execpath: path.join(path.dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js'),
    SCARF_LOCAL_PORT: String(port),
    SCARF_VERBOSE: 'true',
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCARF], { cwd: path.dirname(SCARF), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

it('the install script of @scarf/scarf sends nothing: the root package opts out of its telemetry', async () => {
  expect(fs.existsSync(SCARF)).toBe(true);
  const received: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { output } = await runScarf((server.address() as AddressInfo).port);
    expect(received).toEqual([]);
    // the opt-out is what stopped it, read from package.json without `npm ls`
    expect(output).toMatch(/skippedTraversal: true/);
    expect(output).toMatch(/Error: User has opted out/);
    expect(output).not.toMatch(/npm -ls|npm ls/);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
