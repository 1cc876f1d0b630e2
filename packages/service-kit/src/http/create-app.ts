import express, { type Express } from 'express';
import { createErrorHandler, notFoundHandler, requestId, type EnvelopeFormatter } from '@platform/errors';
import { parseCidrList } from '@platform/auth';
import type { Logger } from 'pino';
import { httpLogger } from '../logger';
import type { Metrics } from '../metrics';

export interface HttpAppOptions {
  logger: Logger;
  metrics: Metrics;
  envelope: EnvelopeFormatter;
  /** Largest JSON body accepted; larger answers 413 in the service's envelope. */
  jsonLimit: string;
  /** CIDRs of reverse proxies whose X-Forwarded-For is believed (the gateway). */
  trustedProxies: readonly string[];
}

export interface HttpApp {
  app: Express;
  /** Adds the 404 and error handlers; call after every route is mounted. */
  finish(): Express;
}

/**
 * The common frame of every service: request ids, request logs, metrics, JSON
 * bodies, the client address taken from X-Forwarded-For only behind a trusted
 * proxy, and — once `finish()` is called — 404s and errors in the service's envelope.
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  const proxies = parseCidrList(options.trustedProxies);
  app.set('trust proxy', (address: string) => proxies.contains(address));
  app.use(requestId());
  app.use(httpLogger(options.logger));
  app.use(options.metrics.middleware);
  app.use(express.json({ limit: options.jsonLimit }));
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
