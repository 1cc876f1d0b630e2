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
});
