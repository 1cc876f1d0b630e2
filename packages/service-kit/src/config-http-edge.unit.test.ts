import { z } from 'zod';
import { ConfigError, httpEdgeEnv, httpEdgeSettings, parseConfig } from './config';

const load = (env: Record<string, string>) => httpEdgeSettings(parseConfig(z.object(httpEdgeEnv), env));

describe('HTTP edge configuration', () => {
  it('defaults to 15 s for headers, 120 s per request, 5 s keep-alive and no /metrics token', () => {
    expect(load({})).toEqual({ headersTimeoutMs: 15_000, requestTimeoutMs: 120_000, keepAliveTimeoutMs: 5_000, metricsToken: undefined });
  });

  it('reads the variables', () => {
    const env = { HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '30000', HTTP_KEEPALIVE_TIMEOUT_MS: '65000', METRICS_TOKEN: 'a-long-enough-token' };
    expect(load(env)).toEqual({ headersTimeoutMs: 5_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000, metricsToken: 'a-long-enough-token' });
  });

  it('refuses a headers timeout longer than the request timeout, and a short metrics token', () => {
    expect(() => load({ HTTP_HEADERS_TIMEOUT_MS: '60000', HTTP_REQUEST_TIMEOUT_MS: '30000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
    expect(() => load({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
  });
});
