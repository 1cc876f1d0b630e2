import { Writable } from 'node:stream';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { esignEnvelope } from '@firma-riesgo/errors';
import { createLogger } from '../logger';
import { createMetrics } from '../metrics';
import { createHttpApp } from './create-app';

/** The frame with a logger writing into `lines`, and routes for each outcome of a request. */
function loggedApp(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>));
      done();
    },
  });
  const http = createHttpApp({
    logger: createLogger({ service: 'access-test', level, destination }),
    metrics: createMetrics('access-test'),
    envelope: esignEnvelope,
    jsonLimit: '1kb',
    trustedProxies: [],
  });
  const router = express.Router();
  router.get('/ok', (_req, res) => {
    res.locals.principal = 'account:acme';
    res.json({ ok: true });
  });
  router.get('/boom', () => {
    throw new Error('boom');
  });
  router.get('/hang', () => undefined);
  http.app.use(router);
  const access = () => lines.filter((line) => typeof line.latency_ms === 'number');
  return { app: http.finish(), lines, access };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe('the access log line', () => {
  it('is one line per request, with the fields and order pino-http wrote, credentials masked', async () => {
    const { app, access } = loggedApp();
    const res = await request(app).get('/ok?municipio_id=28079&token=pk_live_abc&email=ana@example.es').set('authorization', 'Bearer pk_live_abc').set('x-request-id', 'client-7');
    expect(res.status).toBe(200);
    await until(() => access().length === 1);
    const [line] = access();
    expect(Object.keys(line!)).toEqual(['level', 'time', 'service', 'request_id', 'req', 'principal', 'res', 'latency_ms', 'msg']);
    expect(line).toMatchObject({
      level: 30,
      service: 'access-test',
      request_id: 'client-7',
      req: { method: 'GET', url: '/ok?municipio_id=28079&token=[redacted]&email=[redacted]' },
      principal: 'account:acme',
      res: { status: 200 },
      msg: 'request completed',
    });
    expect(JSON.stringify(access())).not.toMatch(/pk_live_abc|ana@example|authorization/i);
  });

  it('logs a 4xx as a warning and a 5xx as an error with the failure, under the id the client got', async () => {
    const { app, access } = loggedApp();
    const missing = await request(app).get('/nope');
    const failed = await request(app).get('/boom');
    await until(() => access().length === 2);
    const [warn, error] = access();
    expect(warn).toMatchObject({ level: 40, request_id: missing.headers['x-request-id'], req: { method: 'GET', url: '/nope' }, res: { status: 404 }, msg: 'request completed' });
    expect(warn).not.toHaveProperty('err');
    expect(Object.keys(error!)).toEqual(['level', 'time', 'service', 'request_id', 'req', 'res', 'err', 'latency_ms', 'msg']);
    expect(error).toMatchObject({ level: 50, request_id: failed.headers['x-request-id'], res: { status: 500 }, err: { type: 'Error', message: 'failed with status code 500' }, msg: 'request errored' });
  });

  it('logs a request the client gave up on as aborted, without a status', async () => {
    const { app, access } = loggedApp();
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const received = new Promise((resolve) => server.once('request', resolve));
      const req = httpRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/hang' });
      req.on('error', () => undefined);
      req.end();
      await received;
      req.destroy();
      await until(() => access().length === 1);
      expect(access()[0]).toMatchObject({ level: 30, req: { method: 'GET', url: '/hang' }, res: { status: null }, msg: 'request aborted' });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('writes nothing when its level is off', async () => {
    const { app, lines } = loggedApp('error');
    await request(app).get('/ok');
    await request(app).get('/nope');
    const failed = await request(app).get('/boom');
    await until(() => lines.some((line) => line.msg === 'request errored'));
    expect(lines.filter((line) => line.msg !== 'unhandled error')).toEqual([expect.objectContaining({ request_id: failed.headers['x-request-id'], level: 50 })]);
  });
});
