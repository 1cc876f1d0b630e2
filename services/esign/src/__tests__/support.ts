import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { shortTempDir as tempDir, unusedDataDir } from '@platform/service-kit/testing';
import { loadConfig } from '../config';

export { eventually, uniquePrefix } from '@platform/service-kit/testing';

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

/** A short temp dir for an embedded DATA_DIR. */
export function shortTempDir(): string {
  return tempDir('es');
}

/** Config as a test wants it: ephemeral port on loopback, quiet logs, no process.env reads. */
export function testConfig(env: Record<string, string | undefined>) {
  return loadConfig({ ESIGN_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: unusedDataDir('es'), ...env });
}

