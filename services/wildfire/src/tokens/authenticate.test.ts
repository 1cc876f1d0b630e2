import request from 'supertest';
import { wildfireEnvelope } from '@firma-riesgo/errors';
import { createHttpApp, createLogger, createMetrics } from '@firma-riesgo/service-kit';
import { createFakeTokensRepository } from './__tests__/fake-tokens-repository';
import { requireToken, type TokenAuth } from './authenticate';
import { createTokensService } from './service';

/**
 * The middleware on a route that needs scopes (no wildfire endpoint does yet), in the
 * service's own HTTP frame and envelope. The HTTP integration tests cover the rest.
 */
function setup(enqueue?: TokenAuth['jobs']['enqueue']) {
  const tokens = createTokensService(createFakeTokensRepository());
  const enqueued: { name: string; payload: unknown }[] = [];
  const warnings: object[] = [];
  const jobs = {
    enqueue:
      enqueue ??
      ((async (name: string, payload: unknown) => {
        enqueued.push({ name, payload });
        return { id: 'job' };
      }) as TokenAuth['jobs']['enqueue']),
  };
  const logger = createLogger({ service: 'wildfire-test', level: 'silent' });
  const http = createHttpApp({ logger, metrics: createMetrics('wildfire-test'), envelope: wildfireEnvelope, jsonLimit: '1kb', trustedProxies: [] });
  const auth: TokenAuth = { tokens, jobs, logger: { warn: (obj) => warnings.push(obj) }, clock: () => new Date('2026-05-04T10:11:12.000Z') };
  http.app.get('/reports', requireToken(auth, { scopes: ['reports:read', 'reports:write'] }), (_req, res) => {
    res.json({ wildfire: res.locals.wildfire, principal: res.locals.principal });
  });
  return { app: http.finish(), tokens, enqueued, warnings };
}

describe('requireToken', () => {
  it('answers 403 INSUFFICIENT_SCOPE naming every missing scope, and records no use', async () => {
    const { app, tokens, enqueued } = setup();
    const { token } = await tokens.create({ account: 'acme', type: 'live', scopes: ['risk:read', 'reports:read'] });
    const res = await request(app).get('/reports').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({
      code: 'INSUFFICIENT_SCOPE',
      message: 'This token lacks the scope reports:write required here',
      param: null,
      request_id: res.headers['x-request-id'],
    });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="wildfire", error="insufficient_scope", scope="reports:write"');
    expect(enqueued).toEqual([]);
  });

  it('lets a token holding every scope through, exposing its account to the route, and enqueues token.touch', async () => {
    const { app, tokens, enqueued } = setup();
    const { token, record } = await tokens.create({ account: 'acme', type: 'test', scopes: ['reports:read', 'reports:write'], municipios: ['28079'] });
    const res = await request(app).get('/reports').set('Authorization', `bearer  ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      principal: 'account:acme',
      wildfire: {
        tokenId: record.id,
        accountId: record.accountId,
        account: 'acme',
        monthlyQuota: null,
        type: 'test',
        prefix: record.prefix,
        scopes: ['reports:read', 'reports:write'],
        municipios: ['28079'],
        ipAllowlist: null,
        expiresAt: null,
        createdAt: record.createdAt.toISOString(),
      },
    });
    expect(enqueued).toEqual([{ name: 'token.touch', payload: { tokenId: record.id, usedAt: '2026-05-04T10:11:12.000Z' } }]);
  });

  it('enqueues token.touch once a minute per token however many requests come, although the stored last use lags behind', async () => {
    const { app, tokens, enqueued } = setup();
    const { token } = await tokens.create({ account: 'acme', type: 'live', scopes: ['reports:read', 'reports:write'] });
    for (let i = 0; i < 5; i++) expect((await request(app).get('/reports').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    expect(enqueued).toHaveLength(1);
    const record = (await tokens.list('acme'))[0]!;
    expect(tokens.touchDue(record, new Date('2026-05-04T10:12:11.999Z'))).toBe(false);
    expect(tokens.touchDue(record, new Date('2026-05-04T10:12:12.000Z'))).toBe(true);
    expect(tokens.touchDue(record, new Date('2026-05-04T10:12:12.000Z'))).toBe(false);
  });

  it('answers the request even when token.touch cannot be enqueued, and logs why', async () => {
    const { app, tokens, warnings } = setup(async () => {
      throw new Error('redis is down');
    });
    const { token, record } = await tokens.create({ account: 'acme', type: 'live', scopes: ['reports:read', 'reports:write'] });
    const res = await request(app).get('/reports').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(warnings).toEqual([{ err: expect.objectContaining({ message: 'redis is down' }), tokenId: record.id }]);
  });

  it.each([
    ['an empty header', '', 'MISSING_AUTH_HEADER'],
    ['the scheme without a token', 'Bearer', 'INVALID_API_KEY'],
    ['two tokens', 'Bearer pk_test_a pk_test_b', 'INVALID_API_KEY'],
  ])('refuses %s', async (_label, header, code) => {
    const { app } = setup();
    const res = await request(app).get('/reports').set('Authorization', header);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe(code);
  });
});
