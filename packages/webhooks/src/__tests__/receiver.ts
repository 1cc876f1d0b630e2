import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * A real HTTP receiver on loopback, as a tenant or subscriber would run one: it records what arrives
 * and answers with whatever status the test sets (or goes away entirely with `stop`).
 */
export async function startReceiver() {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  let answer: { status: number; headers?: Record<string, string>; body?: string } = { status: 204 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      received.push({ headers, body, json: JSON.parse(body) });
      waiters.splice(0).forEach((w) => w());
      res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    answer: (next: typeof answer) => {
      answer = next;
    },
    /** Resolves once `n` messages matching `predicate` have arrived. */
    async waitFor(predicate: (m: Received) => boolean, n = 1): Promise<Received[]> {
      for (;;) {
        const found = received.filter(predicate);
        if (found.length >= n) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    /** Stops listening: connections are refused until `up`. */
    down: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
    /** Listens again on the same port. */
    async up(): Promise<void> {
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Verifies a message as a receiver would, with the Standard Webhooks reference library, unchanged. */
export function verify(secret: string, message: Received): unknown {
  return new Webhook(secret).verify(message.body, message.headers);
}
