import { rmSync } from 'node:fs';
import request from 'supertest';
import { runCli } from '../cli';
import { loadConfig } from '../config';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { captureOutput, eventually, shortTempDir } from './support';

describe('wildfire on the embedded defaults (no database URL, no Redis)', () => {
  const dataDir = shortTempDir();
  const env = { DATA_DIR: dataDir, WILDFIRE_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' };
  let rt: WildfireRuntime;

  beforeAll(async () => {
    rt = await startWildfire(loadConfig(env), 'all');
  });

  afterAll(async () => {
    await rt?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs on PGlite with in-process jobs and reports Redis as disabled', async () => {
    const res = await request(rt.server!).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'ok', database_kind: 'pglite', redis: 'disabled' });
    expect(rt.jobs.mode).toBe('in-process');
  });

  it('creates a working demo test token with every scope on first start, and records its use', async () => {
    expect(rt.demoToken).toMatch(/^pk_test_[0-9A-Za-z]{43}$/);
    const res = await request(rt.server!).get('/api/v1/me').set('Authorization', `Bearer ${rt.demoToken}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      account: 'demo',
      token: { type: 'test', scopes: ['risk:read', 'reports:read', 'reports:write', 'ecosystem:read'], municipios: null, ip_allowlist: null },
    });
    const demo = await eventually(async () => (await rt.tokens.list('demo')).find((t) => t.lastUsedAt !== null));
    expect(demo.id).toBe(res.body.token.id);
  });

  it('lets the CLI list and create tokens while the service runs, joining its database through the socket', async () => {
    const listed = captureOutput();
    expect(await runCli(['tokens', 'list', '--json'], listed.out, env)).toBe(0);
    const tokens = JSON.parse(listed.stdout.join('\n')) as { account: string; prefix: string; state: string }[];
    expect(tokens).toEqual([expect.objectContaining({ account: 'demo', prefix: rt.demoToken!.slice(0, 16), state: 'active' })]);
    expect(listed.stdout.join('\n')).not.toContain(rt.demoToken!);

    const created = captureOutput();
    expect(await runCli(['tokens', 'create', '--type', 'live', '--account', 'acme', '--scopes', 'risk:read', '--json'], created.out, env)).toBe(0);
    const { token } = JSON.parse(created.stdout[0]!) as { token: string };
    const me = await request(rt.server!).get('/api/v1/me').set('Authorization', `Bearer ${token}`);
    expect(me.body).toMatchObject({ account: 'acme', token: { type: 'live', scopes: ['risk:read'] } });
  });

  it('does not create a second demo token on a later start', async () => {
    await rt.close();
    rt = await startWildfire(loadConfig(env), 'all');
    expect(rt.demoToken).toBeNull();
    expect(await rt.tokens.list('demo')).toHaveLength(1);
  });
});
