import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asc } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, shortTempDir, testConfig } from '../__tests__/support';
import { runCli } from '../cli';
import { CsvInputError } from '../csv-input';
import { COMMUNITIES } from '../municipalities/provinces';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { createSeasonsRepository } from './repository';
import { SEASONS, SEASONS_SEED_NAME } from './seasons-table';
import { dangerSeasons } from './tables';

const HEADER = 'community_code,name,from,to,authority,source_title,source_url,measures,note';
const FILE = [
  HEADER,
  'CA05,Época de peligro (Cabildo),07-01,09-30,Cabildo de Gran Canaria,Orden insular de prueba,https://example.org/cabildo,Prohibido el fuego en áreas recreativas| Quemas suspendidas ,',
  '10,,,,Generalitat Valenciana,Plan especial,,,Niveles diarios de preemergencia',
].join('\n');

/** The épocas de peligro table on Postgres: the start-up seed, the lookup and `wildfire ingest seasons`. */
describe('épocas de peligro', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const now = new Date('2025-07-20T10:00:00Z');
  const dir = shortTempDir();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const dump = () => rt.database.db.select().from(dangerSeasons).orderBy(asc(dangerSeasons.communityCode));

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_seasons');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'cli', { clock: () => now });
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it('seeds one row per autonomous community and city at start-up, each with an authority and a source or a note', async () => {
    const rows = await dump();
    expect(rows.map((r) => r.communityCode)).toEqual(Object.keys(COMMUNITIES).sort());
    for (const r of rows) {
      expect(r.origin).toBe('builtin');
      expect(r.authority).not.toBe('');
      if (r.name === null) expect([r.fromDay, r.toDay, r.note]).toEqual([null, null, expect.any(String)]);
      else expect(r.sourceUrl).toMatch(/^https?:\/\//);
    }
  });

  it.each([
    ['2025-05-31', false],
    ['2025-06-01', true],
    ['2025-10-15', true],
    ['2025-10-16', false],
  ])('Andalucía on %s: INFOCA 1 June to 15 October of that year, in force %p', async (date, inForce) => {
    expect(await rt.seasons.seasonOn('01', date)).toMatchObject({
      name: 'Época de peligro alto (Plan INFOCA)',
      from: '2025-06-01',
      to: '2025-10-15',
      inForce,
      authority: 'Junta de Andalucía (Plan INFOCA)',
      sourceUrl: 'https://juntadeandalucia.es/boja/2010/192/1',
    });
  });

  it('says the Canary Islands have no community-wide season, and why', async () => {
    const canarias = await rt.seasons.seasonOn('05', '2025-08-01');
    expect(canarias).toMatchObject({ communityCode: '05', name: null, from: null, to: null, inForce: false, measures: [] });
    expect(canarias!.note).toContain('por episodios');
    expect(canarias!.sourceTitle).toContain('Decreto 180/2025');
  });

  it('refuses a file with a bad row, naming line and column, and loads nothing of it', async () => {
    const before = await dump();
    const cases: [string, number, string][] = [
      [`${HEADER}\n05,A,07-01,09-30,Cabildo,Orden,,,\n20,B,07-01,09-30,X,Y,,,`, 3, 'community_code'],
      [`${HEADER}\n05,A,07-01,02-29,Cabildo,Orden,,,`, 2, 'to'],
      [`${HEADER}\n05,A,07-01,,Cabildo,Orden,,,`, 2, 'to'],
      [`${HEADER}\n05,,,,Cabildo,Orden,,,`, 2, 'note'],
      [`${HEADER}\n05,A,07-01,09-30,,Orden,,,`, 2, 'authority'],
      [`${HEADER}\n05,A,07-01,09-30,Cabildo,Orden,ftp://x,,`, 2, 'source_url'],
      [`${HEADER}\n05,A,07-01,09-30,Cabildo,Orden,,,\nCA05,B,07-01,09-30,Cabildo,Orden,,,`, 3, 'community_code'],
    ];
    for (const [text, line, column] of cases) {
      const err = await rt.ingest.seasons(file('bad.csv', text)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CsvInputError);
      expect([(err as CsvInputError).line, (err as CsvInputError).column]).toEqual([line, column]);
      expect((err as CsvInputError).message).toContain(`line ${line}, column "${column}"`);
    }
    expect(await dump()).toEqual(before);
  });

  it('loads a file over the listed communities only, and loading it again changes nothing', async () => {
    const path = file('seasons.csv', FILE);
    expect(await rt.ingest.seasons(path)).toEqual({ rows: 2, inserted: 0, updated: 2, unchanged: 0 });
    const first = await dump();
    expect(await rt.ingest.seasons(path)).toEqual({ rows: 2, inserted: 0, updated: 0, unchanged: 2 });
    expect(await dump()).toEqual(first);
    expect(await rt.seasons.seasonOn('05', '2025-09-30')).toMatchObject({
      name: 'Época de peligro (Cabildo)',
      from: '2025-07-01',
      to: '2025-09-30',
      inForce: true,
      measures: ['Prohibido el fuego en áreas recreativas', 'Quemas suspendidas'],
      origin: 'ingested',
    });
    expect(await rt.seasons.seasonOn('10', '2025-07-20')).toMatchObject({ name: null, note: 'Niveles diarios de preemergencia', origin: 'ingested' });
    expect(await rt.seasons.seasonOn('01', '2025-07-20')).toMatchObject({ name: 'Época de peligro alto (Plan INFOCA)', origin: 'builtin' });
  });

  it('re-seeds a new table version over the built-in rows and never over an operator’s', async () => {
    const repo = createSeasonsRepository(rt.database);
    const edited = SEASONS.map((s) => ({ ...s, note: `${s.note ?? ''} (v2)` }));
    expect(await repo.seed(edited, SEASONS_SEED_NAME, 'test-v2', now)).toBe(SEASONS.length - 2);
    expect(await repo.seedVersion(SEASONS_SEED_NAME)).toBe('test-v2');
    const rows = await dump();
    expect(rows.find((r) => r.communityCode === '01')!.note).toMatch(/\(v2\)$/);
    expect(rows.find((r) => r.communityCode === '05')).toMatchObject({ name: 'Época de peligro (Cabildo)', origin: 'ingested' });
    expect(await repo.seed(edited, SEASONS_SEED_NAME, 'test-v2', now)).toBe(0);
  });

  it('runs as `wildfire ingest seasons FILE.csv`, and refuses a bad file with exit 1 and the line', async () => {
    const env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent', DATA_DIR: dir };
    const ok = captureOutput();
    expect(await runCli(['ingest', 'seasons', file('again.csv', FILE)], ok.out, env)).toBe(0);
    expect(ok.stdout.join('\n')).toMatch(/^Loaded the épocas de peligro of 2 communities from .*: 0 new, 0 changed, 2 unchanged\.$/);
    const bad = captureOutput();
    expect(await runCli(['ingest', 'seasons', file('bad2.csv', `${HEADER}\n01,A,06-01,10-32,J,O,,,`)], bad.out, env)).toBe(1);
    expect(bad.stderr.join('\n')).toContain('line 2, column "to"');
    expect(bad.stderr.join('\n')).toContain('nothing was loaded');
  });
});
