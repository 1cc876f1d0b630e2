import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    expect(res.body).toMatchObject({ status: 'ok', database: 'ok', database_kind: 'pglite', redis: 'disabled', signing: { self_signed: true, tsa: false } });
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

  it('seeds the municipality registry into PGlite and answers m1 for the demo token from synthetic data', async () => {
    const res = await request(rt.server!).get('/api/v3/m1?municipio_id=41091&date_from=2024-07-01&date_to=2024-07-02').set('Authorization', `Bearer ${rt.demoToken}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { date: string; source: string }) => [r.date, r.source])).toEqual([
      ['2024-07-01', 'synthetic'],
      ['2024-07-02', 'synthetic'],
    ]);
    const unknown = await request(rt.server!).get('/api/v3/m1?municipio_id=99999').set('Authorization', `Bearer ${rt.demoToken}`);
    expect(unknown.body.error.code).toBe('MUNICIPALITY_NOT_FOUND');
  });

  it('generates a report PDF with the demo token, on in-process jobs, stored under DATA_DIR/wildfire/files', async () => {
    const res = await request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${rt.demoToken}`).send({ municipio_id: '41091', periodo: '2024-07' });
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/pdf']);
    const id = res.headers['x-report-id'];
    expect(readFileSync(join(dataDir, 'wildfire', 'files', 'reports', `${id}.pdf`)).equals(res.body)).toBe(true);
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

  it('ingests weather through the socket without COPY (unnest batches), all of a file or nothing', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => {
      const code = i < 6000 ? '28079' : '41091';
      const day = new Date(Date.UTC(2008, 0, 1) + (i % 6000) * 86_400_000).toISOString().slice(0, 10);
      return `${code},${day},${20 + (i % 15)},${30 + (i % 40)},${i % 25},${i % 9 === 0 ? 4 : 0}`;
    });
    const good = join(dataDir, 'weather.csv');
    writeFileSync(good, ['municipio_id,date,temp,rh,ws,prec', ...rows].join('\n'));
    const loaded = captureOutput();
    expect(await runCli(['ingest', 'weather', good, '--json'], loaded.out, env)).toBe(0);
    expect(JSON.parse(loaded.stdout[0]!)).toMatchObject({ rows: 12_000, municipalities: 2, inserted: 12_000 });

    const bad = join(dataDir, 'bad.csv');
    writeFileSync(bad, ['municipio_id,date,temp,rh,ws,prec', ...rows.map((r) => r.replace(/^28079/, '15030')).slice(0, 11_000), '15030,2030-01-01,20,30,5,0'].join('\n'));
    const refused = captureOutput();
    expect(await runCli(['ingest', 'weather', bad], refused.out, env)).toBe(1);
    expect(refused.stderr.join('')).toContain('line 11002, column "date"');

    const { token } = await rt.tokens.create({ account: 'acme', type: 'live', scopes: ['risk:read'] });
    const latest = await request(rt.server!).get('/api/v3/m1?municipio_id=28079').set('Authorization', `Bearer ${token}`);
    expect(latest.body).toMatchObject({ municipio_id: '28079', date: '2024-06-04', source: 'observed' });
    const none = await request(rt.server!).get('/api/v3/m1?municipio_id=15030').set('Authorization', `Bearer ${token}`);
    expect(none.body.error.code).toBe('READING_NOT_FOUND');
  });

  it('ingests ecosystem data through the socket the same way, refusing a file with a bad last row entirely', async () => {
    const header = 'municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct';
    const good = join(dataDir, 'ecosystem.csv');
    writeFileSync(good, [header, '41091,dehesa,2,9.5,24', '38038,bare_rock,,0,1'].join('\n'));
    const loaded = captureOutput();
    expect(await runCli(['ingest', 'ecosystem', good, '--json'], loaded.out, env)).toBe(0);
    expect(JSON.parse(loaded.stdout[0]!)).toEqual({ rows: 2, inserted: 2, updated: 0, unchanged: 0 });

    const bad = join(dataDir, 'ecosystem-bad.csv');
    writeFileSync(bad, [header, '41091,conifer_forest,7,11,60', '15030,water,,0,0', '28079,dehesa,2,9.5,abc'].join('\n'));
    const refused = captureOutput();
    expect(await runCli(['ingest', 'ecosystem', bad], refused.out, env)).toBe(1);
    expect(refused.stderr.join('')).toContain('line 4, column "forest_cover_pct"');

    const { token } = await rt.tokens.create({ account: 'acme', type: 'live', scopes: ['ecosystem:read'] });
    const m10 = await request(rt.server!).get('/api/v3/m10?municipio_id=41091').set('Authorization', `Bearer ${token}`);
    expect(m10.body).toMatchObject({ vegetation_type: 'dehesa', fuel_model: 2, fuel_load_t_ha: 9.5, forest_cover_pct: 24, source: 'observed' });
    const none = await request(rt.server!).get('/api/v3/m10?municipio_id=15030').set('Authorization', `Bearer ${token}`);
    expect(none.body.error.code).toBe('ECOSYSTEM_NOT_FOUND');
  });

  it('does not create a second demo token on a later start', async () => {
    await rt.close();
    rt = await startWildfire(loadConfig(env), 'all');
    expect(rt.demoToken).toBeNull();
    expect(await rt.tokens.list('demo')).toHaveLength(1);
  });
});
