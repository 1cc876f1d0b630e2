import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { setHttpEdge, listenHttp } from './listen';

/**
 * Real sockets that stall: the assertion is that the server closes them, awaited on the
 * socket's `close` event (the test's own timeout is the only clock).
 */
describe('listenHttp server timeouts', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.get('/', (_req, res) => void res.send('ok'));
    app.post('/', (req, res) => void req.on('data', () => undefined).on('end', () => res.send('ok')));
    setHttpEdge(app, { headersTimeoutMs: 200, requestTimeoutMs: 400, keepAliveTimeoutMs: 200 });
    ({ server } = await listenHttp(app, 0, '127.0.0.1'));
    port = (server.address() as { port: number }).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function stalledClient(send: string): Promise<{ socket: Socket; received: () => string }> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.write(send);
    return { socket, received: () => text };
  }

  it('closes a connection whose headers never finish, answering 408', async () => {
    const { socket, received } = await stalledClient('GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    await once(socket, 'close');
    expect(received()).toMatch(/^HTTP\/1\.1 408 /);
  }, 5_000);

  it('closes a connection whose body stops short of its Content-Length, answering 408', async () => {
    const { socket, received } = await stalledClient('POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly part');
    await once(socket, 'close');
    expect(received()).toMatch(/^HTTP\/1\.1 408 /);
  }, 5_000);

  it('closes an idle keep-alive connection after its answer', async () => {
    const { socket, received } = await stalledClient('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await once(socket, 'close');
    expect(received()).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*Keep-Alive: timeout=0/);
  }, 5_000);
});
