import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './lifecycle';

function get(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('closeServer (graceful shutdown)', () => {
  it('lets an in-flight request finish while refusing new connections', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const server = http.createServer(async (_req, res) => {
      arrived();
      await released;
      res.end('finished');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;

    const pending = get(port);
    await inFlight;
    const closed = closeServer(server, 30_000);

    await expect(get(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    release();
    await expect(pending).resolves.toEqual({ status: 200, body: 'finished' });
    await closed;
    expect(server.listening).toBe(false);
  });

  it('cuts connections that outlive the grace period', async () => {
    const server = http.createServer(() => {
      // never answers
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const hung = get(port).catch((err: NodeJS.ErrnoException) => err.code);
    await once(server, 'connection');
    await closeServer(server, 50);
    expect(await hung).toBe('ECONNRESET');
  });
});
