import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import { DEFAULT_HTTP_EDGE, type HttpEdgeSettings } from '../config';

const EDGE_SETTING = 'http edge settings';

/** Records the server timeouts on the app (createHttpApp does it) so listenHttp applies them. */
export function setHttpEdge(app: Express, settings: HttpEdgeSettings): void {
  app.set(EDGE_SETTING, settings);
}

function httpEdgeOf(app: Express): HttpEdgeSettings {
  return (app.get(EDGE_SETTING) as HttpEdgeSettings | undefined) ?? DEFAULT_HTTP_EDGE;
}

/**
 * Starts listening and returns the server with a URL a person can click (port 0 resolved).
 * A client slow to send its headers or its body, or idle on a keep-alive connection, is
 * answered 408 and disconnected after the app's configured timeouts.
 */
export async function listenHttp(app: Express, port: number, host: string): Promise<{ server: Server; url: string }> {
  const edge = httpEdgeOf(app);
  const server = createServer(
    {
      headersTimeout: edge.headersTimeoutMs,
      requestTimeout: edge.requestTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default), so a
      // 15 s headers timeout would otherwise let a slow client stay up to 45 s.
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(edge.headersTimeoutMs / 4))),
    },
    app,
  );
  server.keepAliveTimeout = edge.keepAliveTimeoutMs;
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return { server, url: `http://${shownHost}:${actualPort}` };
}
