import { extname } from 'node:path';
import type { Express, Response } from 'express';
import { createErrorHandler, notFoundHandler, requestId, type EnvelopeFormatter } from '@firma-riesgo/errors';
import { parseCidrList } from '@firma-riesgo/auth';
import type { Logger } from 'pino';
import { DEFAULT_HTTP_EDGE, type HttpEdgeSettings } from '../config';
import { httpLogger } from '../logger';
import type { Metrics } from '../metrics';
import { contentDisposition } from './content-disposition';
import { setHttpEdge } from './listen';
import { metricsAccess } from './metrics-access';
import { securityHeaders } from './security-headers';

export interface HttpAppOptions {
  logger: Logger;
  metrics: Metrics;
  envelope: EnvelopeFormatter;
  /** Largest JSON body accepted; larger answers 413 in the service's envelope. */
  jsonLimit: string;
  /** CIDRs of reverse proxies whose X-Forwarded-For is believed (the gateway). */
  trustedProxies: readonly string[];
  /** Server timeouts (applied by listenHttp) and the /metrics token; defaults when absent. */
  edge?: HttpEdgeSettings;
}

export interface HttpApp {
  app: Express;
  /** Adds the 404 and error handlers; call after every route is mounted. */
  finish(): Express;
}

/**
 * The common frame of every service: security headers, request ids, request logs,
 * metrics (behind a bearer token), JSON bodies, the client address taken from
 * X-Forwarded-For only behind a trusted proxy, and — once `finish()` is called — 404s
 * and errors in the service's envelope.
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  // Express is loaded when an app is made, not when service-kit is: a CLI command never loads it.
  const express: typeof import('express') = require('express');
  const app = express();
  const edge = options.edge ?? DEFAULT_HTTP_EDGE;
  setHttpEdge(app, edge);
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const proxies = parseCidrList(options.trustedProxies);
  app.set('trust proxy', (address: string) => proxies.contains(address));
  // Every download keeps its UTF-8 name (RFC 5987 filename*) with an ASCII fallback.
  app.response.attachment = function attachment(this: Response, filename?: string) {
    if (filename) this.type(extname(filename));
    this.set('Content-Disposition', filename ? contentDisposition('attachment', filename) : 'attachment');
    return this;
  };
  app.use(securityHeaders());
  app.use(requestId());
  app.use(httpLogger(options.logger));
  app.use(options.metrics.middleware);
  app.use(express.json({ limit: options.jsonLimit }));
  app.use('/metrics', metricsAccess(edge.metricsToken));
  app.use(options.metrics.router);
  return {
    app,
    finish() {
      app.use(notFoundHandler());
      app.use(createErrorHandler(options.envelope, options.logger));
      return app;
    },
  };
}
