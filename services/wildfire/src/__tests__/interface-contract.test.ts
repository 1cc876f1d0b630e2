import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { WILDFIRE_INTERFACE_VERSION } from '../openapi';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { TOKEN_SCOPES, type TokenScope } from '../tokens/service';
import { clearRedisPrefix, REDIS_URL, shortTempDir, testConfig, uniquePrefix } from './support';

/**
 * The contract of `shared/interface/wildfire-interface.md`, checked against the running
 * service on Postgres and Redis. Every operation of §4 and every code of §7 has a row
 * here, citing its section; what is not built yet is an `it.todo` naming its issue, so
 * this file is the coverage checklist of the interface.
 */

const JSON_TYPE = /^application\/json(;|$)/;
const INTEGER = /^\d+$/;
// 12:00 in Madrid on 20 July 2025: "today" for the date rules.
const NOW = new Date('2025-07-20T10:00:00Z');
const TOMORROW = '2025-07-21';

type Kind = 'live' | 'test';
type Body = Record<string, unknown>;

interface Operation {
  section: string;
  method: 'get' | 'post';
  path: string;
  query?: Record<string, string>;
  /** A JSON body (POST). */
  body?: Body;
  status?: number;
  mediaType?: 'application/json' | 'application/pdf';
  expectBody?: (body: Body, kind: Kind) => void;
  /** Not built yet: the issue that builds it. */
  todo?: string;
}

const REPORT_CALL = { method: 'post', path: '/api/v1/report', body: { municipio_id: '28079', periodo: '2025-07' } } as const;

const expectReading = (r: Body, municipioId: string) => {
  expect(r).toMatchObject({ municipio_id: municipioId, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), risk_label: expect.stringMatching(/^(LOW|MEDIUM|HIGH)$/) });
  expect(typeof r.risk_score).toBe('number');
  expect(r.risk_score).toBeGreaterThanOrEqual(0);
  expect(r.risk_score).toBeLessThanOrEqual(1);
};

const OPERATIONS: Operation[] = [
  {
    section: '§4 GET /api/v3/m1, latest reading',
    method: 'get',
    path: '/api/v3/m1',
    query: { municipio_id: '28079' },
    expectBody: (body) => expectReading(body, '28079'),
  },
  {
    section: '§4 GET /api/v3/m1 with date_from and date_to (inclusive)',
    method: 'get',
    path: '/api/v3/m1',
    query: { municipio_id: '28079', date_from: '2025-07-17', date_to: '2025-07-19' },
    expectBody: (body) => {
      const days = body.data as Body[];
      expect(days.map((r) => r.date)).toEqual(['2025-07-17', '2025-07-18', '2025-07-19']);
      for (const r of days) expectReading(r, '28079');
    },
  },
  {
    section: '§4 GET /api/v3/m3',
    method: 'get',
    path: '/api/v3/m3',
    query: { municipio_id: '28079' },
    expectBody: (body) => {
      expectReading(body, '28079');
      expect(body).toMatchObject({ danger_class: expect.any(String), aemet_level: expect.any(String), measures: expect.any(Array), actions: expect.any(Array) });
    },
  },
  {
    section: '§4 GET /api/v3/decisiones',
    method: 'get',
    path: '/api/v3/decisiones',
    query: { municipio_id: '28079' },
    expectBody: (body) => {
      expect(body).toMatchObject({ municipio_id: '28079', total: expect.any(Number) });
      // The one ingested decision, beside the synthetic automatic alerts a test token gets.
      const data = body.data as Body[];
      expect(data.filter((d) => d.origin === 'ingested')).toEqual([expect.objectContaining({ scope: { level: 'national', code: 'ES', name: 'España' } })]);
      for (const d of data.filter((x) => x.origin !== 'ingested')) expect(d).toMatchObject({ origin: 'automatic', type: 'alert', scope: { level: 'municipality', code: '28079' } });
    },
  },
  {
    section: '§4 GET /api/v3/m10',
    method: 'get',
    path: '/api/v3/m10',
    query: { municipio_id: '28079' },
    expectBody: (body) => {
      expect(body).toMatchObject({ municipio_id: '28079', vegetation_type: expect.any(String), fuel_load_t_ha: expect.any(Number) });
      expect(body).toHaveProperty('fuel_moisture_index');
    },
  },
  {
    section: '§4 GET /ecosystem',
    method: 'get',
    path: '/ecosystem',
    query: { municipio_id: '28079' },
    expectBody: (body) => expect(body).toMatchObject({ municipio_id: '28079', vegetation_type: expect.any(String) }),
  },
  {
    section: '§4 GET /api/v1/framing',
    method: 'get',
    path: '/api/v1/framing',
    query: { municipio_id: '28079' },
    expectBody: (body) => expect(body).toMatchObject({ municipio_id: '28079', lang: 'es', headline: expect.any(String), key_messages: expect.any(Array) }),
  },
  {
    section: '§4 POST /api/v1/report',
    method: 'post',
    path: '/api/v1/report',
    body: { municipio_id: '28079', periodo: '2025-07' },
    mediaType: 'application/pdf',
    expectBody: (body) => expect(String(body.pdf).startsWith('%PDF-')).toBe(true),
  },
  { section: '§4 GET /api/v1/me', method: 'get', path: '/api/v1/me', expectBody: (body, kind) => expect(body).toMatchObject({ token: { type: kind } }) },
  { section: '§4 GET /health', method: 'get', path: '/health', expectBody: (body) => expect(body).toMatchObject({ status: 'ok' }) },
];

describe('the wildfire interface document, against the running service', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();
  let now = NOW;

  /** A fresh token per call, so no test draws on another's rate-limit budget. */
  const issue = async (kind: Kind, scopes: readonly TokenScope[] = TOKEN_SCOPES, municipios?: string[]) =>
    (await rt.tokens.create({ account: 'ayto-contract', type: kind, scopes: [...scopes], municipios })).token;
  const call = (method: 'get' | 'post', path: string, query: Record<string, string> = {}, token?: string) => {
    const req = request(rt.server!)[method](path).query(query);
    return token === undefined ? req : req.set('Authorization', `Bearer ${token}`);
  };

  /** An operation called exactly as §4 states it, with plain fetch: query parameters, or a JSON body for POST. */
  const callAsDocumented = async (op: Pick<Operation, 'method' | 'path' | 'query' | 'body'>, token?: string) => {
    const url = new URL(op.path, rt.url);
    for (const [name, value] of Object.entries(op.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
    if (op.body) headers['Content-Type'] = 'application/json';
    const res = await fetch(url, { method: op.method.toUpperCase(), headers, body: op.body ? JSON.stringify(op.body) : undefined });
    const type = res.headers.get('content-type')?.split(';')[0];
    const bytes = Buffer.from(await res.arrayBuffer());
    const body: Body = type === 'application/json' ? JSON.parse(bytes.toString('utf8')) : { pdf: bytes.toString('latin1') };
    return { status: res.status, type, headers: res.headers, body };
  };

  /** §7: every error is the status plus `{"error": {code, message, param, request_id}}`. */
  const expectError = (res: request.Response, status: number, code: string, param?: string) => {
    expect([res.status, res.body?.error?.code]).toEqual([status, code]);
    expect(res.headers['content-type']).toMatch(JSON_TYPE);
    expect(Object.keys(res.body)).toEqual(['error']);
    const { error } = res.body;
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'request_id']);
    expect(error.message).toEqual(expect.any(String));
    expect(error.param === null || typeof error.param === 'string').toBe(true);
    expect(error.request_id).toBe(res.headers['x-request-id']);
    if (param !== undefined) expect(error.param).toBe(param);
  };

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_contract');
    // API and BullMQ worker in one process: POST /api/v1/report waits for its job.
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'all', {
      clock: () => now,
    });
    // Live tokens read what the operator loaded, so load it the way the operator does.
    const dir = shortTempDir();
    const days = ['2025-07-15', '2025-07-16', '2025-07-17', '2025-07-18', '2025-07-19'];
    writeFileSync(join(dir, 'weather.csv'), ['municipio_id,date,temp,rh,ws,prec', ...days.map((d, i) => `28079,${d},${30 + i},25,15,0`)].join('\n'));
    writeFileSync(join(dir, 'ecosystem.csv'), 'municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct\n28079,shrubland,6,12.4,18\n');
    await rt.ingest.weather(join(dir, 'weather.csv'));
    await rt.ingest.ecosystem(join(dir, 'ecosystem.csv'));
    writeFileSync(join(dir, 'decisions.csv'), 'scope_code,date_from,date_to,type,title,measures,legal_basis,source_url\nES,2025-07-01,,alert,Aviso nacional,,,\n');
    await rt.ingest.decisions(join(dir, 'decisions.csv'));
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  afterEach(() => {
    now = NOW;
  });

  describe('§4 endpoints: each called as the document states, with Authorization: Bearer', () => {
    for (const op of OPERATIONS) {
      const name = `${op.section} answers ${op.status ?? 200} ${op.mediaType ?? 'application/json'}`;
      if (op.todo) {
        it.todo(`${name} (${op.todo})`);
        continue;
      }
      it.each<Kind>(['live', 'test'])(`${name} to a %s token`, async (kind) => {
        const res = await callAsDocumented(op, await issue(kind));
        expect(res.status).toBe(op.status ?? 200);
        expect(res.type).toBe(op.mediaType ?? 'application/json');
        op.expectBody?.(res.body, kind);
      });
    }
  });

  describe('§5 authentication', () => {
    it('§5.3 issues live tokens prefixed pk_live_ and test tokens prefixed pk_test_', async () => {
      expect(await issue('live')).toMatch(/^pk_live_/);
      expect(await issue('test')).toMatch(/^pk_test_/);
    });

    it('§5.1 never accepts the token as a query parameter', async () => {
      const token = await issue('live');
      expectError(await call('get', '/api/v3/m1', { municipio_id: '28079', api_key: token }), 401, 'MISSING_AUTH_HEADER');
    });
  });

  describe('§7 error codes: each reachable with its documented status', () => {
    const DATA_PATHS = ['/api/v3/m1', '/api/v3/m3', '/api/v3/decisiones', '/api/v3/m10', '/ecosystem', '/api/v1/framing'];
    const bothKinds = (run: (kind: Kind) => Promise<void>): void => {
      it.each<Kind>(['live', 'test'])('to a %s token', run);
    };

    describe('MISSING_AUTH_HEADER 401: Authorization header absent', () => {
      it.each([...DATA_PATHS, '/api/v1/me'])('on %s', async (path) => {
        expectError(await call('get', path, { municipio_id: '28079' }), 401, 'MISSING_AUTH_HEADER');
      });
    });

    describe('INVALID_API_KEY 401: token malformed, expired or revoked', () => {
      it('malformed', async () => {
        expectError(await call('get', '/api/v3/m1', { municipio_id: '28079' }, 'pk_live_not-a-token'), 401, 'INVALID_API_KEY');
      });
      it('expired', async () => {
        const { token } = await rt.tokens.create({ account: 'ayto-contract', type: 'live', scopes: ['risk:read'], expiresAt: new Date(NOW.getTime() + 60_000) });
        now = new Date(NOW.getTime() + 120_000);
        expectError(await call('get', '/api/v3/m1', { municipio_id: '28079' }, token), 401, 'INVALID_API_KEY');
      });
      it('revoked', async () => {
        const { token, record } = await rt.tokens.create({ account: 'ayto-contract', type: 'live', scopes: ['risk:read'] });
        await rt.tokens.revoke(record.id);
        expectError(await call('get', '/api/v3/m1', { municipio_id: '28079' }, token), 401, 'INVALID_API_KEY');
      });
    });

    describe('INSUFFICIENT_SCOPE 403: no permission for the requested municipality', () => {
      it.each(DATA_PATHS)('on %s', async (path) => {
        const madridOnly = await issue('live', TOKEN_SCOPES, ['28079']);
        expectError(await call('get', path, { municipio_id: '41091' }, madridOnly), 403, 'INSUFFICIENT_SCOPE');
        expect((await call('get', path, { municipio_id: '28079' }, madridOnly)).status).toBe(200);
      });
      it.each<[string, TokenScope]>([
        ['/api/v3/m3', 'risk:read'],
        ['/api/v3/decisiones', 'risk:read'],
        ['/api/v1/framing', 'reports:read'],
      ])('%s needs %s (DESIGN §4)', async (path, scope) => {
        const without = await issue('live', TOKEN_SCOPES.filter((s) => s !== scope));
        expectError(await call('get', path, { municipio_id: '28079' }, without), 403, 'INSUFFICIENT_SCOPE');
        expect((await call('get', path, { municipio_id: '28079' }, await issue('live', [scope]))).status).toBe(200);
      });
    });

    describe('MISSING_REQUIRED_PARAM 400: param names the absent parameter', () => {
      it.each(DATA_PATHS)('municipio_id on %s', async (path) => {
        expectError(await call('get', path, {}, await issue('live')), 400, 'MISSING_REQUIRED_PARAM', 'municipio_id');
      });
    });

    describe('INVALID_PARAM_FORMAT 400: a value not in its format, param naming it', () => {
      it.each(DATA_PATHS)('municipio_id not 5 digits on %s', async (path) => {
        expectError(await call('get', path, { municipio_id: '2807' }, await issue('live')), 400, 'INVALID_PARAM_FORMAT', 'municipio_id');
      });
      it.each([
        ['/api/v3/m3', 'date', '2025/07/01'],
        ['/api/v1/framing', 'date', '1-7-2025'],
        ['/api/v3/decisiones', 'date_from', '2025/07/01'],
      ])('%s %s=%s', async (path, param, value) => {
        expectError(await call('get', path, { municipio_id: '28079', [param]: value }, await issue('live')), 400, 'INVALID_PARAM_FORMAT', param);
      });
      it.each([
        ['date_from', '2025/07/01'],
        ['date_to', '17-07-2025'],
      ])('%s=%s on /api/v3/m1', async (param, value) => {
        expectError(await call('get', '/api/v3/m1', { municipio_id: '28079', [param]: value }, await issue('live')), 400, 'INVALID_PARAM_FORMAT', param);
      });
    });

    describe('MUNICIPALITY_NOT_FOUND 404: municipio_id matches no municipality', () => {
      for (const path of DATA_PATHS) {
        describe(path, () => {
          bothKinds(async (kind) => expectError(await call('get', path, { municipio_id: '99999' }, await issue(kind)), 404, 'MUNICIPALITY_NOT_FOUND'));
        });
      }
    });

    describe('DATE_OUT_OF_RANGE 422: a date before 2015-01-01 or in the future', () => {
      it.each([
        ['date_from', '2014-12-31'],
        ['date_to', TOMORROW],
      ])('%s=%s', async (param, value) => {
        for (const kind of ['live', 'test'] as const) {
          expectError(await call('get', '/api/v3/m1', { municipio_id: '28079', [param]: value }, await issue(kind)), 422, 'DATE_OUT_OF_RANGE');
        }
      });
      it.each([
        ['/api/v3/m3', 'date'],
        ['/api/v1/framing', 'date'],
        ['/api/v3/decisiones', 'date_to'],
      ])('%s %s before 2015-01-01 or tomorrow', async (path, param) => {
        for (const kind of ['live', 'test'] as const) {
          for (const value of ['2014-12-31', TOMORROW]) {
            expectError(await call('get', path, { municipio_id: '28079', [param]: value }, await issue(kind)), 422, 'DATE_OUT_OF_RANGE', param);
          }
        }
      });
      it('accepts 2015-01-01 and today', async () => {
        const res = await call('get', '/api/v3/m1', { municipio_id: '28079', date_from: '2015-01-01', date_to: '2015-01-01' }, await issue('test'));
        expect(res.status).toBe(200);
        expect((await call('get', '/api/v3/m1', { municipio_id: '28079', date_from: '2025-07-20' }, await issue('test'))).status).toBe(200);
      });
    });

    describe('DATE_RANGE_TOO_LARGE 422: the span exceeds the endpoint maximum', () => {
      bothKinds(async (kind) => {
        const query = { municipio_id: '28079', date_from: '2023-01-01', date_to: '2024-12-31' };
        expectError(await call('get', '/api/v3/m1', query, await issue(kind)), 422, 'DATE_RANGE_TOO_LARGE');
      });
    });

    const createReport = async (token: string) => {
      const res = await callAsDocumented(REPORT_CALL, token);
      expect(res.status).toBe(200);
      return res.headers.get('x-report-id')!;
    };
    /** §7 on a fetch answer: the status, the code, and the envelope with the request id. */
    const expectFetchError = (res: Awaited<ReturnType<typeof callAsDocumented>>, status: number, code: string) => {
      expect([res.status, res.type, (res.body.error as Body | undefined)?.code]).toEqual([status, 'application/json', code]);
      expect(res.body).toEqual({ error: { code, message: expect.any(String), param: expect.anything(), request_id: res.headers.get('x-request-id') } });
    };

    describe('REPORT_NOT_FOUND 404: no report with the given ID, or it belongs to another account', () => {
      it('an unknown id', async () => {
        const res = await callAsDocumented({ method: 'get', path: '/api/v1/reports/7d3f1c9e-0000-4000-8000-000000000000' }, await issue('live'));
        expectFetchError(res, 404, 'REPORT_NOT_FOUND');
      });
      it('another account’s report', async () => {
        const id = await createReport(await issue('live'));
        const other = (await rt.tokens.create({ account: 'ayto-otra', type: 'live', scopes: ['reports:read'] })).token;
        expectFetchError(await callAsDocumented({ method: 'get', path: `/api/v1/reports/${id}` }, other), 404, 'REPORT_NOT_FOUND');
      });
    });

    it('REPORT_EXPIRED 410: report generated more than 12 months ago', async () => {
      const token = await issue('live');
      const id = await createReport(token);
      expect((await callAsDocumented({ method: 'get', path: `/api/v1/reports/${id}` }, token)).status).toBe(200);
      now = new Date('2026-07-20T10:00:01Z');
      expectFetchError(await callAsDocumented({ method: 'get', path: `/api/v1/reports/${id}` }, token), 410, 'REPORT_EXPIRED');
    });

    it('REPORT_FAILED 500: the report generation job failed; retry POST /api/v1/report', async () => {
      // A service whose file store cannot be written: every generation job fails.
      const broken = await startWildfire(
        testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: `${prefix}-broken`, RATE_LIMIT_PREFIX: prefix }),
        'all',
        { clock: () => now },
      );
      try {
        const files = join(broken.config.dataDir, 'wildfire', 'files');
        mkdirSync(files, { recursive: true });
        writeFileSync(join(files, 'reports'), 'not a folder');
        const url = new URL('/api/v1/report', broken.url);
        // An account with no finished report of this month today: one would be answered again rather than regenerated.
        const { token } = await broken.tokens.create({ account: 'ayto-contract-broken', type: 'live', scopes: ['reports:write'] });
        const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(REPORT_CALL.body) });
        const body = (await res.json()) as { error: { code: string } };
        expect([res.status, body.error.code]).toEqual([500, 'REPORT_FAILED']);
      } finally {
        await broken.close();
        await clearRedisPrefix(`${prefix}-broken`);
      }
    });

    it('UNSUPPORTED_FORMAT 422: format unavailable for the report', async () => {
      for (const kind of ['live', 'test'] as const) {
        const res = await callAsDocumented({ ...REPORT_CALL, body: { ...REPORT_CALL.body, format: 'docx' } }, await issue(kind));
        expectFetchError(res, 422, 'UNSUPPORTED_FORMAT');
        expect(res.body.error).toMatchObject({ param: 'format' });
      }
    });

    describe('POST /api/v1/report: the §7 codes of its JSON body', () => {
      it.each<[string, Body, number, string, string]>([
        ['periodo absent', { municipio_id: '28079' }, 400, 'MISSING_REQUIRED_PARAM', 'periodo'],
        ['municipio_id absent', { periodo: '2025-07' }, 400, 'MISSING_REQUIRED_PARAM', 'municipio_id'],
        ['periodo not YYYY-MM', { municipio_id: '28079', periodo: '07-2025' }, 400, 'INVALID_PARAM_FORMAT', 'periodo'],
        ['municipio_id not 5 digits', { municipio_id: '2807', periodo: '2025-07' }, 400, 'INVALID_PARAM_FORMAT', 'municipio_id'],
        ['periodo before 2015-01', { municipio_id: '28079', periodo: '2014-12' }, 422, 'DATE_OUT_OF_RANGE', 'periodo'],
        ['periodo in the future', { municipio_id: '28079', periodo: '2025-08' }, 422, 'DATE_OUT_OF_RANGE', 'periodo'],
        ['an unknown municipality', { municipio_id: '99999', periodo: '2025-07' }, 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id'],
      ])('%s', async (_name, body, status, code, param) => {
        const res = await callAsDocumented({ ...REPORT_CALL, body }, await issue('live'));
        expectFetchError(res, status, code);
        expect(res.body.error).toMatchObject({ param });
      });
    });
  });

  describe('§8 limits', () => {
    it.each(['/api/v3/m1', '/api/v3/m3', '/api/v3/decisiones', '/api/v3/m10', '/ecosystem', '/api/v1/framing'])('counts %s at 100 per minute per token, X-RateLimit-* as integers', async (path) => {
      const res = await call('get', path, { municipio_id: '28079' }, await issue('live'));
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('100');
      expect(res.headers['x-ratelimit-remaining']).toBe('99');
      expect(res.headers['x-ratelimit-reset']).toMatch(INTEGER);
    });

    it('answers the 101st request of a minute 429 with integer Retry-After and X-RateLimit-Limit, -Remaining, -Reset', async () => {
      const token = await issue('live');
      for (let i = 0; i < 100; i++) expect((await call('get', '/api/v3/m1', { municipio_id: '28079' }, token)).status).toBe(200);
      const res = await call('get', '/api/v3/m1', { municipio_id: '28079' }, token);
      expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
      expect(res.headers['retry-after']).toMatch(INTEGER);
      expect(res.headers['x-ratelimit-reset']).toMatch(INTEGER);
      expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual(['100', '0']);
      // Both headers say when to come back, and agree on it.
      const resumeAt = Math.floor(Date.now() / 1000) + Number(res.headers['retry-after']);
      expect(Math.abs(resumeAt - Number(res.headers['x-ratelimit-reset']))).toBeLessThanOrEqual(2);
    });

    it('never limits test tokens', async () => {
      const token = await issue('test');
      for (let i = 0; i < 101; i++) expect((await call('get', '/api/v3/m1', { municipio_id: '28079' }, token)).status).toBe(200);
    });

    it('counts POST /api/v1/report at 10 per minute per token: the 11th answers 429 with Retry-After and X-RateLimit-*; test tokens are not counted', async () => {
      const token = await issue('live');
      for (let i = 1; i <= 10; i++) {
        const res = await callAsDocumented({ ...REPORT_CALL, body: { ...REPORT_CALL.body, format: 'csv' } }, token);
        expect([res.status, res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-remaining')]).toEqual([200, '10', String(10 - i)]);
      }
      const res = await callAsDocumented({ ...REPORT_CALL, body: { ...REPORT_CALL.body, format: 'csv' } }, token);
      expect([res.status, (res.body.error as Body).code]).toEqual([429, 'RATE_LIMIT_EXCEEDED']);
      expect(res.headers.get('retry-after')).toMatch(INTEGER);
      expect(res.headers.get('x-ratelimit-reset')).toMatch(INTEGER);
      expect([res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-remaining')]).toEqual(['10', '0']);
      const test = await issue('test');
      for (let i = 0; i < 11; i++) {
        const ok = await callAsDocumented({ ...REPORT_CALL, body: { ...REPORT_CALL.body, format: 'csv' } }, test);
        expect([ok.status, ok.headers.get('x-ratelimit-limit')]).toEqual([200, null]);
      }
    });
  });

  describe('§9 versioning', () => {
    it('documents every built operation at its stated path, under the interface version, in /openapi.json', async () => {
      const { body } = await request(rt.server!).get('/openapi.json');
      expect(body.info.version).toBe(WILDFIRE_INTERFACE_VERSION);
      expect(body.info['x-package-version']).toBe(rt.version);
      for (const op of OPERATIONS.filter((o) => !o.todo)) expect(body.paths[op.path]).toHaveProperty(op.method);
    });

    it('sends no Deprecation header while no version is deprecated', async () => {
      const token = await issue('test');
      for (const op of OPERATIONS.filter((o) => !o.todo)) expect((await call(op.method, op.path, op.query, token)).headers.deprecation).toBeUndefined();
    });

    it('marks a deprecated prefix with Deprecation: true from 90 days before its retirement, and no other prefix', async () => {
      // 2025-10-01 is 73 days after NOW, 2025-12-31 is 164 days after it.
      const deprecated = await startWildfire(
        testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_DEPRECATED_PREFIXES: '/api/v1=2025-10-01,/api/v3=2025-12-31' }),
        'api',
        { clock: () => NOW },
      );
      try {
        const token = await issue('test');
        const get = (path: string, query: Record<string, string> = {}) => request(deprecated.server!).get(path).query(query).set('Authorization', `Bearer ${token}`);
        const me = await get('/api/v1/me');
        expect([me.status, me.headers.deprecation]).toEqual([200, 'true']);
        for (const path of ['/api/v3/m1', '/api/v3/m3', '/api/v3/decisiones', '/api/v3/m10', '/ecosystem', '/health']) {
          const res = await get(path, { municipio_id: '28079' });
          expect([path, res.status, res.headers.deprecation]).toEqual([path, 200, undefined]);
        }
      } finally {
        await deprecated.close();
      }
    });
  });
});
