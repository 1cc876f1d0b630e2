import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import {
  ConflictError,
  createErrorHandler,
  esignEnvelope,
  fromZodError,
  notFoundHandler,
  RateLimitedError,
  requestId,
  ValidationError,
  wildfireEnvelope,
  type EnvelopeFormatter,
} from './index';

function appWith(format: EnvelopeFormatter, logged: object[] = []) {
  const app = express();
  app.use(requestId());
  app.use(express.json({ limit: '1kb' }));
  const Body = z.object({ name: z.string(), age: z.number().int() });
  app.post('/items', (req, res) => {
    const parsed = Body.safeParse(req.body);
    if (!parsed.success) throw fromZodError(parsed.error, 'body', req.body);
    res.status(201).json(parsed.data);
  });
  app.get('/conflict', () => {
    throw new ConflictError('Already there', 'ALREADY_EXISTS', { param: 'name' });
  });
  app.get('/limited', () => {
    throw new RateLimitedError('Slow down', 12.2);
  });
  app.get('/boom', () => {
    throw new Error('database password is hunter2');
  });
  app.use(notFoundHandler());
  app.use(createErrorHandler(format, { error: (obj) => logged.push(obj) }));
  return app;
}

describe('esign envelope', () => {
  const app = appWith(esignEnvelope);

  it('answers a missing field with 422 and a list of {loc,msg,type}', async () => {
    const res = await request(app).post('/items').send({ age: 3 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }] });
  });

  it('answers a wrongly typed field with its type name', async () => {
    const res = await request(app).post('/items').send({ name: 'x', age: 'old' });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'age'], type: 'number_type' });
  });

  it('answers malformed JSON with 422 json_invalid', async () => {
    const res = await request(app).post('/items').set('content-type', 'application/json').send('{"name": ');
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('answers an oversized body with 413 in the detail shape', async () => {
    const res = await request(app).post('/items').send({ name: 'x'.repeat(4000), age: 1 });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', request_id: res.headers['x-request-id'] });
    expect(typeof res.body.detail).toBe('string');
  });

  it('renders other errors as {detail, code, request_id}', async () => {
    const res = await request(app).get('/conflict');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: 'Already there', code: 'ALREADY_EXISTS', request_id: res.headers['x-request-id'] });
  });

  it('answers unknown routes with 404 NOT_FOUND', async () => {
    const res = await request(app).get('/nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
  });
});

describe('wildfire envelope', () => {
  const logged: object[] = [];
  const app = appWith(wildfireEnvelope, logged);

  it('maps a missing parameter to 400 MISSING_REQUIRED_PARAM naming the param', async () => {
    const res = await request(app).post('/items').send({ age: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'MISSING_REQUIRED_PARAM', param: 'name', request_id: res.headers['x-request-id'] });
  });

  it('maps a malformed parameter to 400 INVALID_PARAM_FORMAT', async () => {
    const res = await request(app).post('/items').send({ name: 'a', age: 1.5 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAM_FORMAT', param: 'age' });
  });

  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const res = await request(app).post('/items').set('content-type', 'application/json').send('nope{');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_JSON');
  });

  it('keeps the error code and param of application errors and sets null param when absent', async () => {
    const conflict = await request(app).get('/conflict');
    expect(conflict.body.error).toMatchObject({ code: 'ALREADY_EXISTS', param: 'name', message: 'Already there' });
    const missing = await request(app).get('/missing-route');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'NOT_FOUND', param: null });
  });

  it('adds Retry-After to rate-limited answers, rounded up to whole seconds', async () => {
    const res = await request(app).get('/limited');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('13');
    expect(res.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('logs unknown errors and answers 500 without leaking their message', async () => {
    const res = await request(app).get('/boom');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect(logged).toHaveLength(1);
  });
});

describe('request ids', () => {
  const app = appWith(esignEnvelope);

  it('echoes a well-formed incoming X-Request-Id', async () => {
    const res = await request(app).get('/conflict').set('X-Request-Id', 'client-abc.123');
    expect(res.headers['x-request-id']).toBe('client-abc.123');
    expect(res.body.request_id).toBe('client-abc.123');
  });

  it('replaces an id that could forge log lines with a fresh one', async () => {
    const res = await request(app).get('/conflict').set('X-Request-Id', 'bad id\twith tabs');
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('gives distinct ids to distinct requests', async () => {
    const [a, b] = await Promise.all([request(app).get('/nope'), request(app).get('/nope')]);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('ValidationError', () => {
  it('takes its param from the first issue location', () => {
    const err = ValidationError.single('query', 'municipio_id', 'must be 5 digits');
    expect(err.param).toBe('municipio_id');
    expect(err.status).toBe(422);
  });
});
