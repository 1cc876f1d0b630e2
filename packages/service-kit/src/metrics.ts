import type { RequestHandler, Router } from 'express';
import type * as PromClient from 'prom-client';

export interface Metrics {
  registry: PromClient.Registry;
  middleware: RequestHandler;
  router: Router;
  /** A gauge in this registry (e.g. wildfire's AEMET request budget). */
  gauge(name: string, help: string): { set(value: number): void };
}

/**
 * Prometheus metrics: process defaults plus an HTTP latency histogram labelled by
 * route pattern (not raw path, so ids in URLs don't explode the label set).
 */
export function createMetrics(service: string): Metrics {
  // Loaded here, not at import: only the processes that serve HTTP make metrics, and a CLI
  // command's start-up never pays for prom-client or Express.
  const client: typeof PromClient = require('prom-client');
  const express: typeof import('express') = require('express');
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
  // One labelled child per method, route pattern and status, made on first use: no
  // label object to build, check and hash per request. Bounded like the label set itself
  // (Node's parser admits a fixed set of methods; routes are patterns, not paths).
  const children = new Map<string, PromClient.Histogram.Internal<'method' | 'route' | 'status'>>();
  const middleware: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    const finished = () => {
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      const key = `${req.method} ${res.statusCode} ${route}`;
      let child = children.get(key);
      if (!child) {
        child = duration.labels({ method: req.method, route, status: String(res.statusCode) });
        children.set(key, child);
      }
      child.observe(Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.on('finish', finished);
    next();
  };
  const router = express.Router();
  router.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
  const gauge = (name: string, help: string) => new client.Gauge({ name, help, registers: [registry] });
  return { registry, middleware, router, gauge };
}
