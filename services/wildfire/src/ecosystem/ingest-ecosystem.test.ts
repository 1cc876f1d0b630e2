import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, testConfig } from '../__tests__/support';
import { runCli } from '../cli';
import { registryMunicipalities } from '../municipalities/registry';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { syntheticEcosystem } from './synthetic-ecosystem';
import { ecosystems } from './tables';

const HEADER = 'municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct';
/** A plausible row per code: the synthetic profile, so every class and model shows up. */
const rowOf = (code: string) => {
  const e = syntheticEcosystem(code);
  return `${code},${e.vegetationType},${e.fuelModel ?? ''},${e.fuelLoadTHa},${e.forestCoverPct}`;
};

describe('wildfire ingest ecosystem against Postgres', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let env: NodeJS.ProcessEnv;
  const dir = mkdtempSync(join(tmpdir(), 'wf-eco-'));
  let fileNo = 0;
  const file = (lines: string[]) => {
    const path = join(dir, `f${fileNo++}.csv`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  const cli = async (...argv: string[]) => {
    const output = captureOutput();
    const code = await runCli(argv, output.out, env);
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  };
  const stored = () => rt.database.db.select().from(ecosystems).orderBy(asc(ecosystems.municipioId));
  const count = async () => (await rt.database.db.select({ n: sql<number>`count(*)::int` }).from(ecosystems))[0]!.n;
  const codes = registryMunicipalities().map((m) => m.ineCode);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_ingest_eco');
    env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' };
    rt = await startWildfire(testConfig(env), 'api');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a row per municipality that live tokens then read from m10', async () => {
    const result = await cli('ingest', 'ecosystem', file([HEADER, '41091,shrubland,6,12.4,18', '28079,urban,,0,6', '15030,broadleaf_forest,9,8.1,72']), '--json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ rows: 3, inserted: 3, updated: 0, unchanged: 0 });
    expect((await stored()).map((r) => [r.municipioId, r.vegetationType, r.fuelModel, r.fuelLoadTHa, r.forestCoverPct])).toEqual([
      ['15030', 'broadleaf_forest', 9, 8.1, 72],
      ['28079', 'urban', null, 0, 6],
      ['41091', 'shrubland', 6, 12.4, 18],
    ]);
    const { token } = await rt.tokens.create({ account: 'acme', type: 'live', scopes: ['ecosystem:read'] });
    const res = await request(rt.server!).get('/api/v3/m10?municipio_id=15030').set('Authorization', `Bearer ${token}`);
    expect(res.body).toMatchObject({ vegetation_type: 'broadleaf_forest', fuel_model: 9, fuel_load_t_ha: 8.1, forest_cover_pct: 72, source: 'observed' });
  });

  it('changes nothing, not even updated_at, when the same file is loaded again', async () => {
    const path = file([HEADER, '41091,shrubland,6,12.4,18', '28079,urban,,0,6', '15030,broadleaf_forest,9,8.1,72']);
    const before = await stored();
    const again = await cli('ingest', 'ecosystem', path, '--json');
    expect(JSON.parse(again.stdout)).toEqual({ rows: 3, inserted: 0, updated: 0, unchanged: 3 });
    expect(await stored()).toEqual(before);
  });

  it('replaces the municipalities a later file lists and keeps the others', async () => {
    const result = await cli('ingest', 'ecosystem', file([HEADER, '41091,shrubland,4,30.5,22', '08019,urban,,0,9']));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Loaded the ecosystem of 2 municipalities from .*: 1 new, 1 changed, 0 unchanged\.$/);
    expect((await stored()).map((r) => [r.municipioId, r.fuelModel, r.fuelLoadTHa])).toEqual([
      ['08019', null, 0],
      ['15030', 9, 8.1],
      ['28079', null, 0],
      ['41091', 4, 30.5],
    ]);
  });

  it('refuses a whole file for its last bad row, after thousands of good ones, naming the line and column', async () => {
    const before = await stored();
    const good = codes.slice(0, 3000).map(rowOf);
    const result = await cli('ingest', 'ecosystem', file([HEADER, ...good, `${codes[3000]},grassland,2,4,140`]));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('line 3002, column "forest_cover_pct": expected a forest cover in % from 0 to 100, got "140"; nothing was loaded');
    expect(await stored()).toEqual(before);
  });

  it('refuses a municipality listed twice, naming both lines, and loads nothing', async () => {
    const result = await cli('ingest', 'ecosystem', file([HEADER, rowOf('01001'), rowOf('01002'), rowOf('01001')]));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('line 4: municipality 01001 already appears on line 2; nothing was loaded');
    expect(await count()).toBe(4);
  });

  it('loads a full registry in one file', async () => {
    const result = await cli('ingest', 'ecosystem', file([HEADER, ...codes.map(rowOf)]), '--json');
    expect(JSON.parse(result.stdout)).toMatchObject({ rows: codes.length });
    expect(await count()).toBe(codes.length);
  });

  it.each([
    [[HEADER], 'the file has a header but no ecosystem rows; nothing was loaded'],
    [['municipio_id,vegetation_type', '41091,shrubland'], 'line 1: missing columns "fuel_model", "fuel_load_t_ha", "forest_cover_pct"'],
  ])('refuses a file without rows or columns: %j', async (lines, message) => {
    const result = await cli('ingest', 'ecosystem', file(lines));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it('answers a usage error without FILE and a clear error for a missing file', async () => {
    expect(await cli('ingest', 'ecosystem')).toMatchObject({ code: 2, stderr: expect.stringContaining('ingest ecosystem needs exactly one FILE') });
    expect(await cli('ingest', 'ecosystem', join(dir, 'absent.csv'))).toMatchObject({ code: 1, stderr: expect.stringContaining('absent.csv: no such file') });
  });
});
