import request from 'supertest';
import { createLogger } from '@firma-riesgo/service-kit';
import { captureLogLines, createTestDatabase, startHealthProbe, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { TOKEN_SCOPES } from '../tokens/service';
import { clearRedisPrefix, REDIS_URL, testConfig, uniquePrefix } from './support';

/**
 * The hostile-input corpus of wildfire: malformed, oversized, injected and
 * encoded inputs through the HTTP API. Each must get a 4xx in the documented error object
 * (§7: `{"error": {code, message, param, request_id}}`) or the documented success; never a
 * 5xx. /health keeps answering within 2 s, and the logs hold no token.
 */

type Agent = ReturnType<typeof request>;
interface Case {
  name: string;
  send: (api: () => Agent, token: string) => request.Test;
  expect: number[];
  code?: string;
}

const XSS = '<script>alert(1)</script>';
const SQL = "28079' OR '1'='1";
const m1 = (api: () => Agent, token: string, query: Record<string, string> | string) => api().get('/api/v3/m1').query(query).set('authorization', `Bearer ${token}`);

const area = (api: () => Agent, token: string, path: string, query: Record<string, string> | string) => api().get(path).query(query).set('authorization', `Bearer ${token}`);

const alert = (api: () => Agent, token: string, body: unknown) => api().post('/api/v1/alerts').set('authorization', `Bearer ${token}`).send(body as object);
const ALERT = { target: { municipios: ['41091'] }, min_class: 'high' };

const CASES: Case[] = [
  { name: 'm1: SQL in municipio_id', send: (api, t) => m1(api, t, { municipio_id: SQL }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'm1: XSS in municipio_id', send: (api, t) => m1(api, t, { municipio_id: XSS }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'm1: NUL in municipio_id', send: (api, t) => m1(api, t, 'municipio_id=28%00079'), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'm1: a 100 kB municipio_id', send: (api, t) => m1(api, t, { municipio_id: '2'.repeat(100_000) }), expect: [400, 414, 431] },
  { name: 'm1: municipio_id repeated', send: (api, t) => m1(api, t, 'municipio_id=28079&municipio_id=41091'), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'm1: municipio_id as an object', send: (api, t) => m1(api, t, 'municipio_id[a]=28079'), expect: [400] },
  { name: 'm1: full-width digits', send: (api, t) => m1(api, t, { municipio_id: '２８０７９' }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'm1: a date of 0000-00-00', send: (api, t) => m1(api, t, { municipio_id: '28079', date_from: '0000-00-00' }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'm1: 30 February', send: (api, t) => m1(api, t, { municipio_id: '28079', date_from: '2024-02-30' }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'm1: year 99999', send: (api, t) => m1(api, t, { municipio_id: '28079', date_from: '99999-01-01' }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'm1: a date before 2015', send: (api, t) => m1(api, t, { municipio_id: '28079', date_from: '1900-01-01', date_to: '1900-01-02' }), expect: [422], code: 'DATE_OUT_OF_RANGE' },
  { name: 'm1: broken percent-encoding', send: (api, t) => m1(api, t, 'municipio_id=%E0%A4%A'), expect: [400] },
  { name: 'm1: unknown municipality', send: (api, t) => m1(api, t, { municipio_id: '99999' }), expect: [404], code: 'MUNICIPALITY_NOT_FOUND' },
  { name: 'territorio: SQL in province', send: (api, t) => area(api, t, '/api/v3/m1/territorio', { province: "41' OR '1'='1" }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'territorio: province repeated', send: (api, t) => area(api, t, '/api/v3/m1/territorio', 'province=41&province=28'), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'territorio: NUL in province', send: (api, t) => area(api, t, '/api/v3/m1/territorio', 'province=4%001'), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'territorio: province and community', send: (api, t) => area(api, t, '/api/v3/m1/territorio', { province: '41', community: '01' }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'territorio: a garbage Accept', send: (api, t) => area(api, t, '/api/v3/m1/territorio', { province: '52' }).set('accept', `${XSS};q=x, */*;;`), expect: [200] },
  { name: 'territorio: an 8 kB If-None-Match and a garbage Accept-Encoding', send: (api, t) => area(api, t, '/api/v3/m1/territorio', { province: '52' }).set('if-none-match', `"${'a'.repeat(8000)}"`).set('accept-encoding', 'br;q=NaN, x-evil'), expect: [200] },
  { name: 'resumen: XSS in level', send: (api, t) => area(api, t, '/api/v3/resumen', { level: XSS }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'alerts: a loopback webhook (the SSRF guard)', send: (api, t) => alert(api, t, { ...ALERT, webhook_url: 'https://127.0.0.1/hook' }), expect: [422], code: 'WEBHOOK_URL_REFUSED' },
  { name: 'alerts: the cloud metadata address', send: (api, t) => alert(api, t, { ...ALERT, webhook_url: 'https://169.254.169.254/latest/meta-data/' }), expect: [422], code: 'WEBHOOK_URL_REFUSED' },
  { name: 'alerts: a plain-http webhook', send: (api, t) => alert(api, t, { ...ALERT, webhook_url: 'http://example.org/hook' }), expect: [422], code: 'WEBHOOK_URL_REFUSED' },
  { name: 'alerts: a javascript: webhook', send: (api, t) => alert(api, t, { ...ALERT, webhook_url: 'javascript:alert(1)' }), expect: [400, 422] },
  { name: 'alerts: 501 municipios', send: (api, t) => alert(api, t, { ...ALERT, target: { municipios: Array.from({ length: 501 }, (_, i) => String(10000 + i)) } }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'alerts: SQL in a municipio', send: (api, t) => alert(api, t, { ...ALERT, target: { municipios: [SQL] } }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'alerts: an unknown min_class', send: (api, t) => alert(api, t, { ...ALERT, min_class: XSS }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'alerts: extra fields in target', send: (api, t) => alert(api, t, { ...ALERT, target: { province: '41', municipios: ['41091'] } }), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'alerts: a body that is an array', send: (api, t) => alert(api, t, [ALERT]), expect: [400] },
  { name: 'alerts: a subscription id that is not a UUID', send: (api, t) => api().delete(`/api/v1/alerts/${encodeURIComponent(SQL)}`).set('authorization', `Bearer ${t}`), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'alerts: CAP feed with XSS in lang', send: (api, t) => api().get('/api/v1/alerts/cap').query({ lang: XSS }).set('authorization', `Bearer ${t}`), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'alerts: CAP feed with a hostile Host', send: (api, t) => api().get('/api/v1/alerts/cap').set('host', 'evil,<x>&').set('authorization', `Bearer ${t}`), expect: [200, 400] },
  { name: 'm10: NUL in municipio_id', send: (api, t) => api().get('/api/v3/m10?municipio_id=%00').set('authorization', `Bearer ${t}`), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'ecosystem: XSS in municipio_id', send: (api, t) => api().get('/ecosystem').query({ municipio_id: XSS }).set('authorization', `Bearer ${t}`), expect: [400], code: 'INVALID_PARAM_FORMAT' },
  { name: 'auth: a 16 kB token', send: (api) => api().get('/api/v1/me').set('authorization', `Bearer ${'a'.repeat(16_000)}`), expect: [401, 431], code: 'INVALID_API_KEY' },
  { name: 'auth: NUL-looking token', send: (api) => api().get('/api/v1/me').set('authorization', 'Bearer pk_live_%00%00'), expect: [401], code: 'INVALID_API_KEY' },
  { name: 'auth: another scheme', send: (api, t) => api().get('/api/v1/me').set('authorization', `Basic ${t}`), expect: [401], code: 'INVALID_API_KEY' },
  { name: 'auth: token in the query string', send: (api, t) => api().get('/api/v1/me').query({ token: t }), expect: [401], code: 'MISSING_AUTH_HEADER' },
  { name: 'auth: SQL as a token', send: (api) => api().get('/api/v1/me').set('authorization', `Bearer ${SQL}`), expect: [401], code: 'INVALID_API_KEY' },
  { name: 'body: a JSON body on a GET, malformed', send: (api, t) => api().get('/api/v1/me').set('authorization', `Bearer ${t}`).set('content-type', 'application/json').send('{"a":'), expect: [200, 400] },
  {
    name: 'body: gzip that is not gzip',
    send: (api, t) => api().get('/api/v1/me').set('authorization', `Bearer ${t}`).set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"a":1}'),
    expect: [200, 400],
  },
  { name: 'body: larger than WILDFIRE_JSON_LIMIT', send: (api, t) => api().get('/api/v1/me').set('authorization', `Bearer ${t}`).set('content-type', 'application/json').send(JSON.stringify({ a: 'x'.repeat(200_000) })), expect: [200, 413] },
  { name: 'path: traversal', send: (api, t) => api().get('/api/v3/../../etc/passwd').set('authorization', `Bearer ${t}`), expect: [404], code: 'NOT_FOUND' },
  { name: 'path: XSS in an unknown path', send: (api) => api().get(`/api/v3/${encodeURIComponent(XSS)}`), expect: [404], code: 'NOT_FOUND' },
  { name: 'method: DELETE on m1', send: (api, t) => api().delete('/api/v3/m1').set('authorization', `Bearer ${t}`), expect: [404, 405] },
];

describe('the hostile-input corpus of wildfire', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let token: string;
  const prefix = uniquePrefix();
  const logs = captureLogLines();
  const logLines = logs.lines;
  let prober: ReturnType<typeof startHealthProbe> | undefined;
  let health = { probes: 0, failures: [] as string[] };

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_hostile_corpus');
    const logger = createLogger({ service: 'wildfire', level: 'debug', destination: logs.destination });
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix, LOG_LEVEL: 'debug' }), 'api', { logger });
    // test tokens are exempt from the rate limits, so the corpus is never cut short by a 429
    token = (await rt.tokens.create({ account: 'ayto-corpus', type: 'test', scopes: [...TOKEN_SCOPES] })).token;
    prober = startHealthProbe(`${rt.url}/health`);
  });

  afterAll(async () => {
    await prober?.stop();
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const res = await c.send(() => request(rt.server!), token);
    expect({ status: res.status, allowed: c.expect.includes(res.status) }).toEqual({ status: res.status, allowed: true });
    expect(res.status).toBeLessThan(500);
    if (res.status >= 400 && res.status !== 414 && res.status !== 431) {
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String), request_id: expect.any(String) });
      if (c.code) expect(res.body.error.code).toBe(c.code);
    }
  });

  it('kept /health answering within 2 s throughout, and logged no token', async () => {
    health = await prober!.stop();
    expect(health.probes).toBeGreaterThan(0);
    expect(health.failures).toEqual([]);
    const log = logLines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.slice(0, 20));
  });
});

/**
 * Issue 27: a test token (outside the rate limits) floods POST /api/v1/report with `force`.
 * Every answer is the documented 202 of one and the same report, and one row exists: the
 * requests join the pending report instead of each queueing a render. (An API process with
 * no worker, so the report stays pending throughout.)
 */
describe('the hostile-input corpus of wildfire: a forced-report flood from a test token', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_hostile_report_flood');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix, WILDFIRE_REPORT_WAIT_MS: '50' }), 'api');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  it('answers 24 forced requests sent at once (half with Prefer: respond-async) with 202 and one report id, and stores one row', async () => {
    const { token } = await rt.tokens.create({ account: 'ayto-inundacion', type: 'test', scopes: ['reports:write', 'reports:read'] });
    const send = (i: number) => {
      const req = request(rt.server!).post('/api/v1/report').set('authorization', `Bearer ${token}`);
      return (i % 2 === 0 ? req.set('prefer', 'respond-async') : req).send({ municipio_id: '28079', periodo: '2025-01', force: true });
    };
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => send(i)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([202]));
    const ids = new Set(answers.map((a) => a.body.report_id as string));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    for (const a of answers) expect(a.body).toEqual({ report_id: id, status: 'pending', status_url: `/api/v1/reports/${id}` });
    const listed = await request(rt.server!).get('/api/v1/reports').set('authorization', `Bearer ${token}`);
    expect([listed.body.total, listed.body.data[0].report_id]).toEqual([1, id]);
  });
});
