import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { EsignApiError, EsignClient, EsignNetworkError } from './index';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** A local server answering each request with the next handler of a script (the last one repeats), keeping what it received. */
async function misbehavingServer(script: Handler[]) {
  const seen: { req: IncomingMessage; body: Buffer }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ req, body: Buffer.concat(chunks) });
      script[Math.min(seen.length, script.length) - 1]!(req, res, Buffer.concat(chunks));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

const error = (status: number, code: string, headers: Record<string, string> = {}): Handler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${code}`, ...headers });
  res.end(JSON.stringify({ detail: `${code} happened`, code, request_id: `req_${code}` }));
};
const ok = (body: unknown): Handler => (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const STATUS = { request_id: 'r1', status: 'pending' };

function client(url: string, at?: Date) {
  const delays: number[] = [];
  return { delays, client: new EsignClient({ baseUrl: url, key: 'esk_secret', sleep: async (ms) => void delays.push(ms), clock: at ? () => at : undefined }) };
}

describe('EsignClient against a misbehaving server', () => {
  let server: Awaited<ReturnType<typeof misbehavingServer>> | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('succeeds on the third attempt after two 503s, having waited 1 s then 2 s', async () => {
    server = await misbehavingServer([error(503, 'SERVICE_UNAVAILABLE'), error(503, 'SERVICE_UNAVAILABLE'), ok(STATUS)]);
    const { client: c, delays } = client(server.url);
    expect(await c.getSigningRequestStatus('r1')).toEqual(STATUS);
    expect(server.seen).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
  });

  it('gives up after 4 attempts of 500, waiting 1, 2 and 4 s, with the last error’s code and request id', async () => {
    server = await misbehavingServer([error(500, 'INTERNAL_ERROR')]);
    const { client: c, delays } = client(server.url);
    const failure = await c.getDocument('d1').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(EsignApiError);
    expect(failure).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', requestId: 'req_INTERNAL_ERROR', message: 'INTERNAL_ERROR happened', attempts: 4 });
    expect(delays).toEqual([1000, 2000, 4000]);
  });

  it('never retries a 4xx: 404 with its code, 429 with its Retry-After, 422 with the located issues', async () => {
    server = await misbehavingServer([
      error(404, 'DOCUMENT_NOT_FOUND'),
      error(429, 'RATE_LIMIT_EXCEEDED', { 'retry-after': '17' }),
      (_req, res) => {
        res.writeHead(422, { 'content-type': 'application/json', 'x-request-id': 'req_422' });
        res.end(JSON.stringify({ detail: [{ loc: ['body', 'signee_email'], msg: 'Invalid email address', type: 'invalid_format' }] }));
      },
    ]);
    const { client: c, delays } = client(server.url);
    await expect(c.getDocument('d1')).rejects.toMatchObject({ status: 404, code: 'DOCUMENT_NOT_FOUND', attempts: 1 });
    await expect(c.createSigningRequest({ document_id: 'd1', signee_email: 'ana@example.org' })).rejects.toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfterSeconds: 17, attempts: 1 });
    await expect(c.createSigningRequest({ document_id: 'd1', signee_email: 'x' })).rejects.toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
      requestId: 'req_422',
      message: 'body.signee_email: Invalid email address',
      issues: [{ loc: ['body', 'signee_email'], msg: 'Invalid email address', type: 'invalid_format' }],
    });
    expect(server.seen).toHaveLength(3);
    expect(delays).toEqual([]);
  });

  it('waits the Retry-After of a 503 when longer than the backoff, and not at all past the 30 s cap', async () => {
    const at = new Date('2026-05-04T10:00:00Z');
    server = await misbehavingServer([error(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '5' }), error(503, 'SERVICE_UNAVAILABLE', { 'retry-after': '120' })]);
    const { client: c, delays } = client(server.url, at);
    await expect(c.health()).rejects.toMatchObject({ status: 503, retryAfterSeconds: 120, attempts: 2 });
    expect(delays).toEqual([5000]);
  });

  it('sends the multipart upload again, whole, on each retried attempt, with the key only in Authorization', async () => {
    const pdf = Buffer.from('%PDF-1.7\n% not really a PDF\n');
    server = await misbehavingServer([error(503, 'SERVICE_UNAVAILABLE'), ok({ document_id: 'd1' })]);
    const { client: c } = client(server.url);
    expect(await c.uploadDocument({ file: pdf, filename: 'contrato ñ.pdf', title: 'Contrato' })).toEqual({ document_id: 'd1' });
    expect(server.seen).toHaveLength(2);
    for (const { req, body } of server.seen) {
      expect(req.headers.authorization).toBe('Bearer esk_secret');
      expect(req.url).toBe('/firma/documentos');
      expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(body.includes(pdf)).toBe(true);
      expect(body.toString('utf8')).toMatch(/name="title"\r\n\r\nContrato\r\n/);
    }
  });

  it('streams a download, with its name from Content-Disposition', async () => {
    const bytes = Buffer.alloc(256 * 1024, 7);
    server = await misbehavingServer([
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': "attachment; filename=\"firmado-d1.pdf\"; filename*=UTF-8''firmado-d1.pdf" });
        res.end(bytes);
      },
    ]);
    const download = await client(server.url).client.downloadSignedPdf('d1');
    expect(download).toMatchObject({ contentType: 'application/pdf', filename: 'firmado-d1.pdf' });
    const chunks: Uint8Array[] = [];
    for await (const chunk of download.body) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('reports a refused connection as EsignNetworkError without retrying, and refuses a keyed call without a key', async () => {
    server = await misbehavingServer([ok(STATUS)]);
    const url = server.url;
    await server.close();
    server = undefined;
    const { client: c, delays } = client(url);
    await expect(c.getSigningRequestStatus('r1')).rejects.toBeInstanceOf(EsignNetworkError);
    expect(delays).toEqual([]);
    await expect(new EsignClient({ baseUrl: url }).getDocument('d1')).rejects.toThrow('getDocument() needs a key');
  });
});
