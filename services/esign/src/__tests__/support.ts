import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../config';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server in the test process: what the service sends arrives here. */
export async function startSmtpSink() {
  const messages: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Resolves when a message matching `predicate` has arrived. */
    async waitFor(predicate: (m: ReceivedMail) => boolean): Promise<ReceivedMail> {
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A short temp dir (PGlite's Unix socket path must stay under 100 characters). */
export function shortTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'es-'));
}

export function uniquePrefix(): string {
  return `t${randomBytes(4).toString('hex')}`;
}

/** Config as a test wants it: ephemeral port on loopback, quiet logs, no process.env reads. */
export function testConfig(env: Record<string, string | undefined>) {
  return loadConfig({ ESIGN_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: shortTempDir(), ...env });
}

/**
 * Polls `probe` until it returns a defined value (bounded: `attempts` × `intervalMs`).
 * For effects that land after an asynchronous commit; asserts the outcome, not the time.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, attempts = 200, intervalMs = 50): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`condition not met after ${attempts} attempts`);
}
