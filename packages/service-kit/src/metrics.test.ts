import express from 'express';
import request from 'supertest';
import { esignEnvelope } from '@firma-riesgo/errors';
import { createLogger } from './logger';
import { createMetrics } from './metrics';
import { createHttpApp } from './http/create-app';

describe('the request latency histogram', () => {
  it('counts each request once under its method, route pattern and status', async () => {
    const metrics = createMetrics('metrics-test');
    const http = createHttpApp({ logger: createLogger({ service: 'metrics-test', level: 'silent' }), metrics, envelope: esignEnvelope, jsonLimit: '1kb', trustedProxies: [] });
    const router = express.Router();
    router.get('/items/:id', (req, res) => void res.status(req.params.id === 'gone' ? 410 : 200).json({}));
    router.post('/items/:id', (_req, res) => void res.status(201).json({}));
    http.app.use('/v1', router);
    const app = http.finish();
    for (const path of ['/v1/items/1', '/v1/items/2', '/v1/items/3', '/v1/items/gone', '/nope']) await request(app).get(path);
    await request(app).post('/v1/items/1').send({});

    // Observed on 'finish', which may trail the client's read of the answer by a tick.
    let text = '';
    for (let i = 0; i < 100; i++) {
      text = await metrics.registry.metrics();
      if (/route="unmatched",status="404"\} 1$/m.test(text) && /status="201"\} 1$/m.test(text)) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const count = (labels: string) => Number(new RegExp(`^http_request_duration_seconds_count\\{service="metrics-test",${labels}\\} (\\d+)$`, 'm').exec(text)?.[1]);
    expect(count('method="GET",route="/v1/items/:id",status="200"')).toBe(3);
    expect(count('method="GET",route="/v1/items/:id",status="410"')).toBe(1);
    expect(count('method="POST",route="/v1/items/:id",status="201"')).toBe(1);
    expect(count('method="GET",route="unmatched",status="404"')).toBe(1);
    expect(text.match(/^http_request_duration_seconds_count/gm)).toHaveLength(4);
  });
});
