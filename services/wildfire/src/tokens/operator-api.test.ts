import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, testConfig } from '../__tests__/support';
import { runCli } from '../cli';
import { createAdminLogRepository } from '../admin-log/repository';
import { startWildfire, type WildfireRuntime } from '../runtime';

const HOUR = 3_600_000;
const M1 = '/api/v3/m1?municipio_id=28079&date_from=2025-07-01&date_to=2025-07-02';

/** The operator API (`/api/v1/admin/tokens`) against the running service on Postgres, with the service's clock injected. */
describe('operator API: tokens over REST', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let rt: WildfireRuntime;
  let offsetMs = 0;
  let operator: string;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_operator_api');
    env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' };
    rt = await startWildfire(testConfig(env), 'api', { clock: () => new Date(Date.now() + offsetMs) });
    const output = captureOutput();
    expect(await runCli(['tokens', 'create', '--type', 'live', '--account', 'ops', '--scopes', 'admin:tokens', '--json'], output.out, env)).toBe(0);
    operator = (JSON.parse(output.stdout.join('\n')) as { token: string }).token;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  afterEach(() => {
    offsetMs = 0;
  });

  const api = () => request(rt.server!);
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const create = (body: object, token = operator) => api().post('/api/v1/admin/tokens').set(as(token)).send(body);
  const m1 = (token: string) => api().get(M1).set(as(token));
  const log = () => createAdminLogRepository(rt.database.db).entries();

  it('creates a token shown once, which works at once, and lists tokens masked', async () => {
    const created = await create({ type: 'test', account: 'ayto-sevilla', scopes: ['risk:read'], municipios: ['28079'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'test', account: 'ayto-sevilla', scopes: ['risk:read'], municipios: ['28079'], allowed_ips: null, expires_at: null });
    expect(created.body.token).toMatch(/^pk_test_\w{43}$/);
    expect((await m1(created.body.token)).status).toBe(200);

    const listed = await api().get('/api/v1/admin/tokens?account=ayto-sevilla').set(as(operator));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ token_id: created.body.token_id, prefix: created.body.prefix, status: 'active' })]);
    const everything = await api().get('/api/v1/admin/tokens').set(as(operator));
    for (const secret of [created.body.token, operator]) expect(everything.text).not.toContain(secret.slice(12));
    expect(everything.body.map((t: { account: string }) => t.account).sort()).toEqual(['ayto-sevilla', 'ops']);
  });

  it('grants only the interface’s four scopes over REST, and only to a token holding admin:tokens', async () => {
    const admin = await create({ type: 'live', account: 'sneaky', scopes: ['risk:read', 'admin:tokens'] });
    expect(admin.status).toBe(400);
    expect(admin.body.error).toMatchObject({ code: 'INVALID_PARAM_FORMAT', param: 'scopes' });
    expect(admin.body.error.message).toMatch(/granted with the operator CLI only/);
    expect((await create({ type: 'enterprise', account: 'x', scopes: ['risk:read'] })).status).toBe(400);
    expect((await create({ type: 'live', account: 'x', scopes: ['risk:read'], allowed_ips: ['not-an-ip'] })).body.error.param).toBe('allowed_ips');

    const client = (await create({ type: 'live', account: 'ayto-cadiz', scopes: ['risk:read', 'reports:read'] })).body.token as string;
    const refused = await create({ type: 'live', account: 'x', scopes: ['risk:read'] }, client);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await api().get('/api/v1/me').set(as(client))).body.token).toMatchObject({ scopes: ['risk:read', 'reports:read'], operator_scopes: [] });
    expect((await api().get('/api/v1/me').set(as(operator))).body.token).toMatchObject({ scopes: [], operator_scopes: ['admin:tokens'] });
  });

  it('rotates with an overlap: the replacement works at once, the old token until the overlap ends, then INVALID_API_KEY', async () => {
    const old = (await create({ type: 'live', account: 'ayto-huelva', scopes: ['risk:read'], municipios: ['28079'] })).body;
    const rotated = await api().post(`/api/v1/admin/tokens/${old.token_id}/rotate`).set(as(operator)).send({ overlap_hours: 2 });
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ replaces: old.token_id, account: 'ayto-huelva', scopes: ['risk:read'], municipios: ['28079'] });
    expect(Date.parse(rotated.body.replaced_expires_at) - Date.now()).toBeGreaterThan(2 * HOUR - 60_000);
    expect((await m1(old.token)).status).toBe(200);
    expect((await m1(rotated.body.token)).status).toBe(200);
    expect((await api().post(`/api/v1/admin/tokens/${old.token_id}/rotate`).set(as(operator)).send({})).body.error.code).toBe('ALREADY_ROTATED');

    offsetMs = 2 * HOUR;
    const after = await m1(old.token);
    expect(after.status).toBe(401);
    expect(after.body.error).toMatchObject({ code: 'INVALID_API_KEY' });
    expect((await m1(rotated.body.token)).status).toBe(200);
    const listed = (await api().get('/api/v1/admin/tokens?account=ayto-huelva').set(as(operator))).body as { token_id: string; status: string; replaced_by: string | null }[];
    expect(listed.find((t) => t.token_id === old.token_id)).toMatchObject({ status: 'expired', replaced_by: rotated.body.token_id });
  });

  it('refuses a token past its expiry with INVALID_API_KEY, and an expiry in the past', async () => {
    const expiresAt = new Date(Date.now() + HOUR).toISOString();
    const { token } = (await create({ type: 'live', account: 'ayto-jaen', scopes: ['risk:read'], expires_at: expiresAt })).body;
    expect((await m1(token)).status).toBe(200);
    offsetMs = HOUR;
    expect((await m1(token)).body.error.code).toBe('INVALID_API_KEY');
    expect((await create({ type: 'live', account: 'ayto-jaen', scopes: ['risk:read'], expires_at: new Date(Date.now() - 1000).toISOString() })).body.error.param).toBe('expires_at');
  });

  it('revokes a token (404 after), leaves rotating operator tokens to the CLI, and logs every change with who made it', async () => {
    const victim = (await create({ type: 'live', account: 'ayto-malaga', scopes: ['risk:read'] })).body;
    expect((await api().delete(`/api/v1/admin/tokens/${victim.token_id}`).set(as(operator))).status).toBe(204);
    expect((await m1(victim.token)).status).toBe(401);
    expect((await api().delete(`/api/v1/admin/tokens/${victim.token_id}`).set(as(operator))).body.error.code).toBe('TOKEN_NOT_FOUND');
    expect((await api().delete('/api/v1/admin/tokens/not-a-uuid').set(as(operator))).status).toBe(400);
    const operatorId = (await api().get('/api/v1/me').set(as(operator))).body.token.id as string;
    expect((await api().post(`/api/v1/admin/tokens/${operatorId}/rotate`).set(as(operator)).send({})).body.error.code).toBe('CLI_ONLY');

    const entries = await log();
    expect(entries[0]).toMatchObject({ action: 'token_created', actor: 'cli', actorTokenId: null, account: 'ops' });
    const malaga = entries.filter((e) => e.account === 'ayto-malaga');
    expect(malaga.map((e) => [e.action, e.actor, e.actorTokenId, e.tokenId])).toEqual([
      ['token_created', 'account:ops', operatorId, victim.token_id],
      ['token_revoked', 'account:ops', operatorId, victim.token_id],
    ]);
    expect(entries.filter((e) => e.action === 'token_rotated')).toHaveLength(1);
  });
});
