/**
 * Puts back what the unit guard (`jest-unit-guard.js`) replaced. `net` and `child_process`
 * are the worker process's own modules, shared by every test file the worker runs, of both
 * projects; each replacement carries the real function (`.original`), so whichever file
 * comes next can put it back. Set up before every file of the `integration` project.
 */
const net = require('node:net');
const childProcess = require('node:child_process');

const GUARDED = [
  [net.Socket.prototype, 'connect', 'a network connection'],
  [net.Server.prototype, 'listen', 'a listening socket'],
  ...['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'].map((name) => [childProcess, name, `starting a process (child_process.${name})`]),
];

function restore() {
  for (const [target, name] of GUARDED) {
    if (typeof target[name]?.original === 'function') target[name] = target[name].original;
  }
}

restore();
module.exports = { GUARDED, restore };
