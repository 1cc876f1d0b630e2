import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, clearRedisPrefix, expectErrorBody, REDIS_URL, shortTempDir, testConfig, uniquePrefix } from '../__tests__/support';
import { runCli } from '../cli';
import { CsvInputError } from '../csv-input';
import { readingOf } from '../readings/reading';
import { readings } from '../readings/tables';
import { startWildfire, type WildfireRuntime } from '../runtime';
import type { TokenScope } from '../tokens/service';
import { decisions } from './tables';

const HEADER = 'scope_code,date_from,date_to,type,title,measures,legal_basis,source_url';
// Sevilla (41091) and Alcalá de Guadaíra (41004) share the province 41 and Andalucía (CA01); Madrid (28079) shares only ES.
const FILE = [
  HEADER,
  '41091,2025-07-14,2025-07-16,prohibition,Bando de Sevilla,Sin barbacoas|Sin pirotecnia,Bando 12/2025,https://www.sevilla.org/bando-12-2025',
  '41,2025-07-01,2025-07-31,alert,Alerta provincial Sevilla,Vigilancia reforzada,,',
  'CA01,2025-06-01,2025-10-15,season,Época de peligro alto (INFOCA),Prohibido el uso del fuego|Quemas suspendidas,Plan INFOCA,https://www.juntadeandalucia.es/medioambiente/infoca',
  'ES,2025-07-10,,other,Declaración nacional,,,',
  '28079,2025-07-15,2025-07-20,closure,Cierre Casa de Campo,Acceso cerrado,,',
  '28,2025-07-01,2025-07-31,alert,Alerta Madrid,,,',
  'CA13,2025-06-15,2025-09-30,season,Época de peligro alto (Madrid),,,',
].join('\n');

/** GET /api/v3/decisiones and `wildfire ingest decisions` against Postgres and Redis. */
describe('territorial decisions', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();
  const now = new Date('2025-07-20T10:00:00Z');
  const dir = shortTempDir();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const token = async (scopes: TokenScope[] = ['risk:read'], type: 'live' | 'test' = 'live') => (await rt.tokens.create({ account: 'ayto', type, scopes })).token;
  const get = async (query: string, bearer?: string) =>
    request(rt.server!)
      .get(`/api/v3/decisiones?${query}`)
      .set('Authorization', `Bearer ${bearer ?? (await token())}`);
  const dump = async () => rt.database.db.select().from(decisions).orderBy(decisions.decisionId);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_decisions');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'api', { clock: () => now });
    // Sevilla was very high on the first day of its bando.
    const r = readingOf('2025-07-14', { temp: 40, rh: 15, ws: 20, prec: 0 }, { ffmc: 95, dmc: 200, dc: 700, isi: 15, bui: 220, fwi: 45, dsr: 30 });
    await rt.database.db.insert(readings).values({ municipioId: '41091', ...r });
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  describe('ingestion', () => {
    it('refuses a file with a bad row, naming line and column, and loads nothing of it', async () => {
      const bad = file('bad.csv', [HEADER, 'ES,2025-07-01,,alert,Good row,,,', 'ES,2025-07-02,,alert,Another,,,', 'CA21,2025-07-03,,alert,Bad,,,'].join('\n'));
      await expect(rt.ingest.decisions(bad)).rejects.toThrow(CsvInputError);
      await expect(rt.ingest.decisions(bad)).rejects.toMatchObject({ line: 4, column: 'scope_code' });
      expect(await dump()).toEqual([]);
    });

    it('loads a file, and loading it again changes nothing', async () => {
      const path = file('decisions.csv', FILE);
      expect(await rt.ingest.decisions(path)).toEqual({ rows: 7, inserted: 7, updated: 0, unchanged: 0 });
      const first = await dump();
      expect(await rt.ingest.decisions(path)).toEqual({ rows: 7, inserted: 0, updated: 0, unchanged: 7 });
      expect(await dump()).toEqual(first);
    });

    it('runs as `wildfire ingest decisions FILE.csv`, and refuses a bad file with exit 1 and the line', async () => {
      const env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent', DATA_DIR: dir };
      const ok = captureOutput();
      expect(await runCli(['ingest', 'decisions', file('again.csv', FILE)], ok.out, env)).toBe(0);
      expect(ok.stdout.join('\n')).toMatch(/^Loaded 7 decisions from .*: 0 new, 0 changed, 7 unchanged\.$/);
      const bad = captureOutput();
      expect(await runCli(['ingest', 'decisions', file('bad2.csv', `${HEADER}\nES,2025-07-01,,ban,T,,,`)], bad.out, env)).toBe(1);
      expect(bad.stderr.join('\n')).toContain('line 2, column "type"');
      expect(bad.stderr.join('\n')).toContain('nothing was loaded');
    });
  });

  describe('GET /api/v3/decisiones', () => {
    it('shows a municipality its own decisions and those of its province, community and country, newest first', async () => {
      const res = await get('municipio_id=41091');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ municipio_id: '41091', total: 4, limit: 50, offset: 0 });
      expect(res.body.data.map((d: { scope: unknown; date_from: string }) => [d.scope, d.date_from])).toEqual([
        [{ level: 'municipality', code: '41091', name: 'Sevilla' }, '2025-07-14'],
        [{ level: 'national', code: 'ES', name: 'España' }, '2025-07-10'],
        [{ level: 'province', code: '41', name: 'Sevilla' }, '2025-07-01'],
        [{ level: 'community', code: 'CA01', name: 'Andalucía' }, '2025-06-01'],
      ]);
      expect(res.body.data[0]).toEqual({
        decision_id: expect.stringMatching(/^dec_[0-9a-f]{24}$/),
        type: 'prohibition',
        title: 'Bando de Sevilla',
        scope: { level: 'municipality', code: '41091', name: 'Sevilla' },
        date_from: '2025-07-14',
        date_to: '2025-07-16',
        measures: ['Sin barbacoas', 'Sin pirotecnia'],
        legal_basis: 'Bando 12/2025',
        source_url: 'https://www.sevilla.org/bando-12-2025',
        origin: 'ingested',
        forecast: false,
        danger_class: 'very_high',
        created_at: now.toISOString(),
      });
      expect(res.body.data[1].danger_class).toBeNull();
    });

    it('shows a neighbour only the province, community and national ones; Madrid only its own and the national one', async () => {
      const alcala = await get('municipio_id=41004');
      expect(alcala.body.data.map((d: { scope: { code: string } }) => d.scope.code)).toEqual(['ES', '41', 'CA01']);
      const madrid = await get('municipio_id=28079');
      expect(madrid.body.data.map((d: { scope: { code: string } }) => d.scope.code)).toEqual(['28079', 'ES', '28', 'CA13']);
    });

    it('pages with limit and offset, the total counting every page', async () => {
      const page = await get('municipio_id=41091&limit=2&offset=1');
      expect(page.body).toMatchObject({ total: 4, limit: 2, offset: 1 });
      expect(page.body.data.map((d: { scope: { code: string } }) => d.scope.code)).toEqual(['ES', '41']);
      expect((await get('municipio_id=41091&offset=10')).body).toMatchObject({ total: 4, data: [] });
    });

    it('filters by the days in force', async () => {
      const res = await get('municipio_id=41091&date_from=2025-07-17&date_to=2025-07-17');
      expect(res.body.data.map((d: { scope: { code: string } }) => d.scope.code)).toEqual(['ES', '41', 'CA01']);
      const june = await get('municipio_id=41091&date_to=2025-06-30');
      expect(june.body.data.map((d: { scope: { code: string } }) => d.scope.code)).toEqual(['CA01']);
    });

    it('gives a test token the same ingested decisions beside the synthetic automatic ones, with the synthetic class on their first day', async () => {
      const res = await get('municipio_id=41091&limit=200', await token(['risk:read'], 'test'));
      expect(res.body.total).toBe(res.body.data.length);
      const ingested = res.body.data.filter((d: { origin: string }) => d.origin === 'ingested');
      expect(ingested.map((d: { scope: { code: string } }) => d.scope.code)).toEqual(['41091', 'ES', '41', 'CA01']);
      for (const d of res.body.data) expect(d.danger_class).toMatch(/^(very_low|low|moderate|high|very_high|extreme)$/);
      for (const d of res.body.data.filter((x: { origin: string }) => x.origin === 'automatic')) expect(['very_high', 'extreme']).toContain(d.danger_class);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['offset=-1', 'offset'],
      ['limit=abc', 'limit'],
      ['date_from=2025-7-1', 'date_from'],
    ])('answers 400 INVALID_PARAM_FORMAT to %s', async (query, param) => {
      expectErrorBody(await get(`municipio_id=41091&${query}`), 400, 'INVALID_PARAM_FORMAT', param);
    });

    it('answers the documented errors', async () => {
      expectErrorBody(await get(''), 400, 'MISSING_REQUIRED_PARAM', 'municipio_id');
      expectErrorBody(await get('municipio_id=99999'), 404, 'MUNICIPALITY_NOT_FOUND', 'municipio_id');
      expectErrorBody(await get('municipio_id=41091&date_to=2025-07-21'), 422, 'DATE_OUT_OF_RANGE', 'date_to');
      expectErrorBody(await get('municipio_id=41091&date_from=2014-12-31'), 422, 'DATE_OUT_OF_RANGE', 'date_from');
      expectErrorBody(await get('municipio_id=41091&date_from=2025-07-10&date_to=2025-07-01'), 422, 'INVALID_DATE_RANGE', 'date_from');
      expectErrorBody(await request(rt.server!).get('/api/v3/decisiones?municipio_id=41091'), 401, 'MISSING_AUTH_HEADER', null);
      expectErrorBody(await get('municipio_id=41091', await token(['reports:read'])), 403, 'INSUFFICIENT_SCOPE', null);
      const sevillaOnly = (await rt.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'], municipios: ['41091'] })).token;
      expectErrorBody(await get('municipio_id=41004', sevillaOnly), 403, 'INSUFFICIENT_SCOPE', 'municipio_id');
    });

    it('counts toward the 100-per-minute data limit of a live token', async () => {
      const live = await token();
      for (let i = 0; i < 100; i++) expect((await get('municipio_id=41091', live)).status).toBe(200);
      expectErrorBody(await get('municipio_id=41091', live), 429, 'RATE_LIMIT_EXCEEDED', null);
    });
  });
});
