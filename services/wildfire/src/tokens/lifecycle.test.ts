import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, testConfig } from '../__tests__/support';
import { runCli } from '../cli';
import { startWildfire, type WildfireRuntime } from '../runtime';

const HOUR = 3_600_000;

/** The operator's token lifecycle (CLI) against the running service on Postgres, with the service's clock injected. */
describe('token lifecycle: rotate, revoke, refuse', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let rt: WildfireRuntime;
  let offsetMs = 0;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_lifecycle');
    env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' };
    rt = await startWildfire(testConfig(env), 'api', { clock: () => new Date(Date.now() + offsetMs) });
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  afterEach(() => {
    offsetMs = 0;
  });

  async function cli(...argv: string[]) {
    const output = captureOutput();
    const code = await runCli(argv, output.out, env);
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  }
  const me = (token: string) => request(rt.server!).get('/api/v1/me').set('Authorization', `Bearer ${token}`);
  const create = async (...extra: string[]) => {
    const created = await cli('tokens', 'create', '--type', 'live', '--account', 'ayto-sevilla', '--scopes', 'risk:read,ecosystem:read', '--json', ...extra);
    expect(created.code).toBe(0);
    return JSON.parse(created.stdout) as { token: string; id: string; prefix: string; monthly_quota: number | null };
  };

  it('rotates a token: the replacement keeps account, scopes and limits, and the old one works until the grace period ends, then answers INVALID_API_KEY', async () => {
    const old = await create('--municipios', '41091', '--ip', '127.0.0.0/8,::1', '--quota', '5000');
    expect(old.monthly_quota).toBe(5000);
    const rotated = await cli('tokens', 'rotate', old.token, '--grace', '2h', '--json');
    expect(rotated).toMatchObject({ code: 0, stderr: '' });
    const replacement = JSON.parse(rotated.stdout) as { token: string; id: string; replaces: string; old_valid_until: string };
    expect(replacement).toMatchObject({ account: 'ayto-sevilla', type: 'live', scopes: ['risk:read', 'ecosystem:read'], replaces: old.id });
    expect(replacement.token).toMatch(/^pk_live_\w{43}$/);
    expect(Date.parse(replacement.old_valid_until) - Date.now()).toBeGreaterThan(2 * HOUR - 60_000);
    expect(Date.parse(replacement.old_valid_until) - Date.now()).toBeLessThanOrEqual(2 * HOUR);

    const fresh = await me(replacement.token);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ account: 'ayto-sevilla', token: { id: replacement.id, municipios: ['41091'], ip_allowlist: ['127.0.0.0/8', '::1/128'], expires_at: null } });
    expect(fresh.body.usage.quota).toBe(5000);

    offsetMs = 2 * HOUR - 60_000;
    const during = await me(old.token);
    expect(during.status).toBe(200);
    expect(during.body.token.expires_at).toBe(replacement.old_valid_until);

    offsetMs = 2 * HOUR + 1000;
    const after = await me(old.token);
    expect(after.status).toBe(401);
    expect(after.body.error).toMatchObject({ code: 'INVALID_API_KEY', message: `This API token was replaced by a rotation; its grace period ended at ${replacement.old_valid_until}. Use its replacement` });
    expect((await me(replacement.token)).status).toBe(200);

    const listed = JSON.parse((await cli('tokens', 'list', '--account', 'ayto-sevilla', '--json')).stdout) as { id: string; state: string; replaced_by: string | null }[];
    expect(listed.find((t) => t.id === old.id)).toMatchObject({ state: 'grace', replaced_by: replacement.id });
  });

  it('rotates by id with a 24 h grace period by default, and refuses to rotate the old token again', async () => {
    const old = await create();
    const rotated = await cli('tokens', 'rotate', old.id);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(new RegExp(`^Rotated live token ${old.id} \\(${old.prefix}\\) of account "ayto-sevilla"; it keeps working until \\S+\\.\\n`));
    expect(rotated.stdout).toMatch(/Token \(shown once\): pk_live_\w{43}$/);
    offsetMs = 24 * HOUR - 60_000;
    expect((await me(old.token)).status).toBe(200);
    offsetMs = 24 * HOUR + 60_000;
    expect((await me(old.token)).status).toBe(401);
    offsetMs = 0;
    const again = await cli('tokens', 'rotate', old.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/was already rotated .*rotate its replacement instead/);
  });

  it('ends the old token at once with --grace 0', async () => {
    const old = await create();
    expect((await cli('tokens', 'rotate', old.prefix, '--grace', '0')).code).toBe(0);
    expect((await me(old.token)).status).toBe(401);
  });

  it('never lets the grace period outlive the old token’s own expiry', async () => {
    const old = await rt.tokens.create({ account: 'ayto-sevilla', type: 'live', scopes: ['risk:read'], expiresAt: new Date(Date.now() + HOUR) });
    const rotated = await rt.tokens.rotate(old.record.id, 24 * HOUR);
    expect(rotated!.old.expiresAt).toEqual(old.record.expiresAt);
    expect(rotated!.record.expiresAt).toEqual(old.record.expiresAt);
  });

  it('revokes a token given whole, matched by its hash, without echoing it', async () => {
    const { token, id } = await create();
    const revoked = await cli('tokens', 'revoke', token);
    expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`Revoked live token ${id}`) });
    expect(revoked.stdout).not.toContain(token);
    expect((await me(token)).body.error).toMatchObject({ code: 'INVALID_API_KEY', message: 'This API token has been revoked' });
    const again = await cli('tokens', 'revoke', token);
    expect(again).toMatchObject({ code: 1, stderr: 'wildfire: no active token matches the given token' });
  });

  it('revokes a rotated token during its grace period, ending it at once', async () => {
    const old = await create();
    await cli('tokens', 'rotate', old.id);
    expect((await cli('tokens', 'revoke', old.id)).code).toBe(0);
    expect((await me(old.token)).status).toBe(401);
  });

  it('answers 401 INVALID_API_KEY to an expired token, and to malformed ones', async () => {
    const { token } = await rt.tokens.create({ account: 'ayto-sevilla', type: 'live', scopes: ['risk:read'], expiresAt: new Date(Date.now() + HOUR) });
    offsetMs = HOUR + 1000;
    expect((await me(token)).body.error.code).toBe('INVALID_API_KEY');
    offsetMs = 0;
    for (const malformed of [token.slice(0, -1), `${token}x`, 'pk_prod_abc', token.replace('pk_live_', 'pk_test_'), 'not-a-token']) {
      const res = await me(malformed);
      expect([res.status, res.body.error.code]).toEqual([401, 'INVALID_API_KEY']);
    }
  });
});

describe('IP allowlist behind the gateway', () => {
  let db: TestDatabase;
  let behindProxy: WildfireRuntime;
  let direct: WildfireRuntime;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_proxy');
    behindProxy = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, TRUSTED_PROXIES: '127.0.0.1/32,::1/128' }), 'api');
    direct = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'api');
    token = (await direct.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'], ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'] })).token;
  });

  afterAll(async () => {
    await behindProxy?.close();
    await direct?.close();
    await db?.drop();
  });

  const me = (rt: WildfireRuntime, forwardedFor?: string) => {
    const req = request(rt.server!).get('/api/v1/me').set('Authorization', `Bearer ${token}`);
    return forwardedFor === undefined ? req : req.set('X-Forwarded-For', forwardedFor);
  };

  it('believes X-Forwarded-For from a trusted proxy: an allowed IPv4 or IPv6 client passes', async () => {
    expect((await me(behindProxy, '203.0.113.9')).status).toBe(200);
    expect((await me(behindProxy, '2001:db8::7')).status).toBe(200);
  });

  it('answers 403 IP_NOT_ALLOWED to a client outside the allowlist behind a trusted proxy, naming the forwarded address', async () => {
    const res = await me(behindProxy, '198.51.100.4');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'IP_NOT_ALLOWED', message: 'This token may not be used from 198.51.100.4' });
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy, judging the peer’s own address', async () => {
    const res = await me(direct, '203.0.113.9');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('IP_NOT_ALLOWED');
    expect(res.body.error.message).not.toContain('203.0.113.9');
  });
});
