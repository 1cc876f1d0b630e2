import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { esignEnvelope, wildfireEnvelope, type EnvelopeFormatter } from '@firma-riesgo/errors';
import { createLogger } from '../logger';
import { createMetrics } from '../metrics';
import { createHttpApp } from './create-app';
import { OpenAPIRegistry } from './openapi';
import { defineRoute } from './route';

const NAME = 'ünï©ødé 文件 🔥.pdf';

function edgeApp(options: { envelope?: EnvelopeFormatter; metricsToken?: string; jsonLimit?: string } = {}) {
  const http = createHttpApp({
    logger: createLogger({ service: 'edge-test', level: 'silent' }),
    metrics: createMetrics('edge-test'),
    envelope: options.envelope ?? esignEnvelope,
    jsonLimit: options.jsonLimit ?? '1kb',
    trustedProxies: [],
    edge: { headersTimeoutMs: 15_000, requestTimeoutMs: 120_000, keepAliveTimeoutMs: 5_000, metricsToken: options.metricsToken },
  });
  const router = express.Router();
  const registry = new OpenAPIRegistry();
  defineRoute(router, registry, {
    method: 'post',
    path: '/items/{item_id}',
    operationId: 'createItem',
    summary: 'test',
    tags: ['t'],
    params: z.object({ item_id: z.string() }),
    query: z.object({ q: z.string().optional() }),
    body: z.object({ name: z.string(), notes: z.string().optional(), tags: z.array(z.string()).optional() }),
    responses: { 200: { description: 'ok' } },
    // Stands in for multer: an uploaded file with the name the client sent.
    before: [(req, _res, next) => ((req as { files?: unknown }).files = { file: [{ fieldname: 'file', originalname: decodeURIComponent(req.get('x-filename') ?? 'a.pdf') }] }, next())],
    handler: ({ body }) => body,
  });
  router.get('/page', (_req, res) => void res.type('html').send('<p>hi</p>'));
  router.get('/own-policy', (_req, res) => void res.set('Content-Security-Policy', "default-src 'none'; script-src 'nonce-abc'").type('html').send('<p>hi</p>'));
  router.get('/download', (req, res) => void res.attachment(String(req.query.name)).send('%PDF-'));
  http.app.use(router);
  return http.finish();
}

describe('security headers', () => {
  const app = edgeApp();

  it('sends nosniff and a strict policy on JSON answers, errors included', async () => {
    for (const res of [await request(app).post('/items/1').send({ name: 'a' }), await request(app).get('/nope'), await request(app).post('/items/1').send({ name: 'x'.repeat(5000) })]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    }
  });

  it('forbids framing of HTML pages and keeps a page’s own stricter policy', async () => {
    const page = await request(app).get('/page');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const own = await request(app).get('/own-policy');
    expect(own.headers['content-security-policy']).toBe("default-src 'none'; script-src 'nonce-abc'");
  });
});

describe('/metrics', () => {
  it('answers 404 in the service envelope when no METRICS_TOKEN is configured', async () => {
    const res = await request(edgeApp()).get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('needs the configured bearer token', async () => {
    const app = edgeApp({ metricsToken: 'metrics-token-0123456789' });
    const none = await request(app).get('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toContain('Bearer');
    expect((await request(app).get('/metrics').set('authorization', 'Bearer wrong-token')).status).toBe(401);
    const ok = await request(app).get('/metrics').set('authorization', 'Bearer metrics-token-0123456789');
    expect(ok.status).toBe(200);
    expect(ok.text).toMatch(/^# (HELP|TYPE) /m);
  });
});

describe('downloads', () => {
  const app = edgeApp();

  it('name a UTF-8 file exactly in filename* with an ASCII fallback', async () => {
    const res = await request(app).get('/download').query({ name: NAME });
    const header = res.headers['content-disposition'] as string;
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(decodeURIComponent(/filename\*=UTF-8''(\S+)/.exec(header)![1]!)).toBe(NAME);
    expect(res.headers['content-type']).toContain('application/pdf');
  });

  it('keep a plain ASCII name as a simple quoted filename', async () => {
    const res = await request(app).get('/download').query({ name: 'contrato-rotated.pdf' });
    expect(res.headers['content-disposition']).toBe('attachment; filename="contrato-rotated.pdf"');
  });
});

describe('request bodies the parser cannot read', () => {
  it.each([
    ['esign', esignEnvelope, (b: { code: string }) => b.code],
    ['wildfire', wildfireEnvelope, (b: { error: { code: string } }) => b.error.code],
  ] as const)('answer 400/415 in the %s envelope, never 500', async (_name, envelope, codeOf) => {
    const app = edgeApp({ envelope });
    const notGzip = await request(app).post('/items/1').set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"name":"a"}');
    expect(notGzip.status).toBe(400);
    expect(codeOf(notGzip.body as never)).toBe('INVALID_CONTENT_ENCODING');
    const unknownEncoding = await request(app).post('/items/1').set('content-type', 'application/json').set('content-encoding', 'compress').send('{"name":"a"}');
    expect(unknownEncoding.status).toBe(415);
    expect(codeOf(unknownEncoding.body as never)).toBe('UNSUPPORTED_ENCODING');
    const charset = await request(app).post('/items/1').set('content-type', 'application/json; charset=klingon').send('{"name":"a"}');
    expect(charset.status).toBe(415);
    expect(codeOf(charset.body as never)).toBe('UNSUPPORTED_ENCODING');
  });
});

describe('control characters in any input', () => {
  const app = edgeApp();

  it('answer 422 naming the field, in the body, nested, the query and the path', async () => {
    const body = await request(app).post('/items/1').send({ name: 'Ana\u0000' });
    expect(body.status).toBe(422);
    expect(body.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'], type: 'control_characters' })]);
    const nested = await request(app).post('/items/1').send({ name: 'a', tags: ['ok', 'bell\u0007'] });
    expect(nested.body.detail[0].loc).toEqual(['body', 'tags', 1]);
    const query = await request(app).post('/items/1?q=%00').send({ name: 'a' });
    expect(query.body.detail[0].loc).toEqual(['query', 'q']);
    const path = await request(app).post('/items/a%00b').send({ name: 'a' });
    expect(path.body.detail[0].loc).toEqual(['path', 'item_id']);
  });

  it('refuse a file name with a control character, naming the file field', async () => {
    const res = await request(app).post('/items/1').set('x-filename', encodeURIComponent('a\u001b.pdf')).send({ name: 'a' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['form', 'file'], type: 'control_characters' });
  });

  it('let tab, line feed and carriage return through in text', async () => {
    const res = await request(app).post('/items/1').send({ name: 'a', notes: 'line 1\r\n\tline 2' });
    expect(res.status).toBe(200);
    expect(res.body.notes).toBe('line 1\r\n\tline 2');
  });

  it('survive a deeply nested body without overflowing the stack', async () => {
    const deep = `${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}`;
    const res = await request(edgeApp({ jsonLimit: '1mb' })).post('/items/1').set('content-type', 'application/json').send(`{"name":"a","tags":${deep}}`);
    expect(res.status).toBe(422);
  });
});
