import { once } from 'node:events';
import type { Server } from 'node:http';
import type { Express } from 'express';

/** Starts listening and returns the server with a URL a person can click (port 0 resolved). */
export async function listenHttp(app: Express, port: number, host: string): Promise<{ server: Server; url: string }> {
  const server = app.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return { server, url: `http://${shownHost}:${actualPort}` };
}
