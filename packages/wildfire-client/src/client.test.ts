import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { WildfireApiError, WildfireClient, WildfireNetworkError } from './index';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local server answering each request with the next handler of a script (the last one repeats). */
async function misbehavingServer(script: Handler[]) {
  const seen: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req);
    script[Math.min(seen.length, script.length) - 1]!(req, res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

const envelope = (status: number, code: string, headers: Record<string, string> = {}): Handler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${code}`, ...headers });
  res.end(JSON.stringify({ error: { code, message: `${code} happened`, param: code === 'INVALID_PARAM_FORMAT' ? 'municipio_id' : null, request_id: `req_${code}` } }));
};
const ok = (body: unknown, headers: Record<string, string> = {}): Handler => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const READING = { municipio_id: '28079', date: '2025-07-15', risk_label: 'LOW' };

function client(url: string) {
  const delays: number[] = [];
  return { delays, client: new WildfireClient({ baseUrl: url, token: 'pk_test_secret', sleep: async (ms) => void delays.push(ms) }) };
}

describe('WildfireClient against a misbehaving server', () => {
  let server: Awaited<ReturnType<typeof misbehavingServer>> | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('succeeds on the third attempt after two 503s, having waited 1 s then 2 s', async () => {
    server = await misbehavingServer([envelope(503, 'SERVICE_UNAVAILABLE'), envelope(503, 'SERVICE_UNAVAILABLE'), ok(READING)]);
    const { client: c, delays } = client(server.url);
    expect(await c.m1({ municipio_id: '28079' })).toEqual(READING);
    expect(server.seen).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
  });

  it('gives up after 4 attempts of 500, waiting 1, 2 and 4 s, with the last error’s code and request id', async () => {
    server = await misbehavingServer([envelope(500, 'INTERNAL_ERROR')]);
    const { client: c, delays } = client(server.url);
    const error = await c.me().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(WildfireApiError);
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', requestId: 'req_INTERNAL_ERROR', request_id: 'req_INTERNAL_ERROR', attempts: 4 });
    expect(server.seen).toHaveLength(4);
    expect(delays).toEqual([1000, 2000, 4000]);
  });

  it('never retries a 400, and carries code, param and request_id', async () => {
    server = await misbehavingServer([envelope(400, 'INVALID_PARAM_FORMAT'), ok(READING)]);
    const { client: c, delays } = client(server.url);
    const error = (await c.m1({ municipio_id: '123' }).catch((err: unknown) => err)) as WildfireApiError;
    expect(error).toMatchObject({ status: 400, code: 'INVALID_PARAM_FORMAT', param: 'municipio_id', requestId: 'req_INVALID_PARAM_FORMAT', message: 'INVALID_PARAM_FORMAT happened' });
    expect(server.seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('does not retry a 429 either, reporting the Retry-After it was given', async () => {
    server = await misbehavingServer([envelope(429, 'RATE_LIMIT_EXCEEDED', { 'retry-after': '17' }), ok(READING)]);
    const { client: c, delays } = client(server.url);
    const error = (await c.m1({ municipio_id: '28079' }).catch((err: unknown) => err)) as WildfireApiError;
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfterSeconds: 17, attempts: 1 });
    expect(server.seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('waits the Retry-After of a 503 when it is longer than the backoff, as seconds or as an HTTP date', async () => {
    const at = new Date('2026-05-04T10:00:00Z');
    server = await misbehavingServer([
      envelope(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '5' }),
      envelope(503, 'SERVICE_UNAVAILABLE', { 'retry-after': new Date(at.getTime() + 7000).toUTCString() }),
      ok(READING),
    ]);
    const delays: number[] = [];
    const c = new WildfireClient({ baseUrl: server.url, token: 'pk_test_x', sleep: async (ms) => void delays.push(ms), clock: () => at });
    await c.m1({ municipio_id: '28079' });
    expect(delays).toEqual([5000, 7000]);
  });

  it('does not wait beyond the 30 s cap: a longer Retry-After returns the error at once', async () => {
    server = await misbehavingServer([envelope(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '120' }), ok(READING)]);
    const { client: c, delays } = client(server.url);
    await expect(c.me()).rejects.toMatchObject({ status: 503, retryAfterSeconds: 120, attempts: 1 });
    expect(delays).toEqual([]);
  });

  it('sends the token only in the Authorization header, never in the URL', async () => {
    server = await misbehavingServer([ok(READING)]);
    await client(server.url).client.m1({ municipio_id: '28079', date_from: '2025-07-01' });
    const [req] = server.seen;
    expect(req!.headers.authorization).toBe('Bearer pk_test_secret');
    expect(req!.url).toBe('/api/v3/m1?municipio_id=28079&date_from=2025-07-01');
    expect(req!.url).not.toContain('pk_test');
  });

  it('reads a non-envelope error body as HTTP_<status>, keeping the X-Request-Id header', async () => {
    server = await misbehavingServer([
      (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'req_gateway' });
        res.end('<html>Bad gateway</html>');
      },
    ]);
    await expect(client(server.url).client.health()).rejects.toMatchObject({ status: 502, code: 'HTTP_502', requestId: 'req_gateway' });
    expect(server.seen).toHaveLength(1);
  });

  it('records the rate-limit headers of the last counted response', async () => {
    server = await misbehavingServer([ok(READING, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '42', 'x-ratelimit-reset': '1780000000' })]);
    const { client: c } = client(server.url);
    await c.m1({ municipio_id: '28079' });
    expect(c.lastRateLimit).toEqual({ limit: 100, remaining: 42, reset: 1780000000 });
  });

  it('reports a refused connection as WildfireNetworkError without retrying', async () => {
    server = await misbehavingServer([ok(READING)]);
    const url = server.url;
    await server.close();
    server = undefined;
    const { client: c, delays } = client(url);
    await expect(c.me()).rejects.toBeInstanceOf(WildfireNetworkError);
    expect(delays).toEqual([]);
  });

  it('refuses to call an authenticated endpoint without a token', async () => {
    await expect(new WildfireClient({ baseUrl: 'http://127.0.0.1:9' }).me()).rejects.toThrow('me() needs a token');
  });
});
