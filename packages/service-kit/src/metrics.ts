import client from 'prom-client';
import type { RequestHandler, Router } from 'express';
import express from 'express';

export interface Metrics {
  registry: client.Registry;
  middleware: RequestHandler;
  router: Router;
}

/**
 * Prometheus metrics: process defaults plus an HTTP latency histogram labelled by
 * route pattern (not raw path, so ids in URLs don't explode the label set).
 */
export function createMetrics(service: string): Metrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on('finish', () => {
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
  const router = express.Router();
  router.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
  return { registry, middleware, router };
}
