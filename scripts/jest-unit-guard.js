/**
 * Set up before every file of jest's `unit` project: a unit test needs no Postgres, Redis,
 * PDF engine, network or browser, so opening a socket (a TCP or Unix connection, a
 * listener) or starting a process fails it at once, with a message saying where the
 * test belongs. A test that needs one is an integration test: name it `*.test.ts`.
 */
const net = require('node:net');
const childProcess = require('node:child_process');

function refuse(what) {
  return function refused() {
    throw new Error(`${what} in a unit test: unit tests (*.unit.test.ts) run without services; name this file *.test.ts (integration) instead`);
  };
}

net.Socket.prototype.connect = refuse('a network connection');
net.Server.prototype.listen = refuse('a listening socket');
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = refuse(`starting a process (child_process.${name})`);
}
