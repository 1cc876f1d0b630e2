/**
 * Set up before every file of jest's `unit` project: a unit test needs no Postgres, Redis,
 * PDF engine, network or browser, so opening a socket (a TCP or Unix connection, a
 * listener) or starting a process fails it at once, with a message saying where the
 * test belongs. A test that needs one is an integration test: name it `*.test.ts`.
 *
 * The worker process's `net` and `child_process` are shared with the integration files it
 * runs next: the guard is put back after each unit file (`afterAll`), and before each
 * integration file (`jest-unit-guard-off.js`) in case a unit file ended before its hooks.
 */
const { GUARDED, restore } = require('./jest-unit-guard-off');

for (const [target, name, what] of GUARDED) {
  const real = target[name];
  const refused = function refused() {
    throw new Error(`${what} in a unit test: unit tests (*.unit.test.ts) run without services; name this file *.test.ts (integration) instead`);
  };
  refused.original = real;
  target[name] = refused;
}
afterAll(restore);
