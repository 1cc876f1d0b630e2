import express from 'express';
import request from 'supertest';
import { newRequestId, requestId } from './request-id';

describe('request ids', () => {
  it('are req_ and 24 hex digits, all different, across many refills of the random pool', () => {
    const ids = Array.from({ length: 5000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('are not a counter: consecutive ids share no common prefix beyond chance', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId().slice(4));
    // Two fresh 96-bit ids agree on their first 8 hex digits with probability 2^-32.
    const alike = ids.slice(1).filter((id, i) => id.slice(0, 8) === ids[i]!.slice(0, 8));
    expect(alike).toEqual([]);
  });

  it('echo a well-formed X-Request-Id and replace anything else', async () => {
    const app = express();
    app.use(requestId());
    app.get('/', (req, res) => void res.json({ id: req.requestId }));
    const echoed = await request(app).get('/').set('x-request-id', 'client-1.a:b_c');
    expect(echoed.headers['x-request-id']).toBe('client-1.a:b_c');
    expect(echoed.body.id).toBe('client-1.a:b_c');
    for (const bad of ['a b', 'x'.repeat(129), 'line\\nbreak', '']) {
      const res = await request(app).get('/').set('x-request-id', bad);
      expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{24}$/);
      expect(res.body.id).toBe(res.headers['x-request-id']);
    }
  });
});
