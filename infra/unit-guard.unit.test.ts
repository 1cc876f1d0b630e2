import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';

/**
 * The unit project (`npm run test:unit`, files `*.unit.test.ts`) runs without services:
 * scripts/jest-unit-guard.js makes a test that reaches for Postgres, Redis, an engine or a
 * listener fail at once, with a message saying it is an integration test.
 */
describe('the unit tier guard', () => {
  it('fails a unit test that opens a connection (Postgres, Redis, anything)', () => {
    expect(() => connect(5432, '127.0.0.1')).toThrow(/unit tests \(\*\.unit\.test\.ts\) run without services/);
    expect(() => connect(6379, '127.0.0.1')).toThrow(/name this file \*\.test\.ts/);
  });

  it('fails a unit test that listens or starts a process (an engine, a browser)', () => {
    expect(() => createServer().listen(0)).toThrow(/a listening socket in a unit test/);
    expect(() => spawn('qpdf', ['--version'])).toThrow(/child_process\.spawn/);
  });

  it('puts the real functions back for the next file its worker runs (integration files share the worker)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { GUARDED, restore } = require('../scripts/jest-unit-guard-off') as { GUARDED: [Record<string, unknown>, string][]; restore: () => void };
    const guards = GUARDED.map(([target, name]) => target[name] as { original?: unknown });
    restore();
    try {
      GUARDED.forEach(([target, name], i) => {
        expect(typeof guards[i]!.original).toBe('function');
        expect(target[name]).toBe(guards[i]!.original);
      });
    } finally {
      GUARDED.forEach(([target, name], i) => (target[name] = guards[i]));
    }
  });
});
