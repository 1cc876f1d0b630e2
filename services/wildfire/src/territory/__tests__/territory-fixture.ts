import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { shortTempDir, storeReading, testConfig } from '../../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../../runtime';
import type { TokenScope } from '../../tokens/service';
import { SEVILLA_TENERIFE_NOMENCLATOR } from '../__fixtures__/nomenclator-sevilla-tenerife';

/** The day the fixture's readings are stored for. */
export const DAY = '2025-07-19';
/** 12:00 in Madrid on 20 July 2025: the next ingestion (14:00 Madrid by default) is two hours away. */
export const NOW = new Date('2025-07-20T10:00:00Z');

export interface TerritoryFixture {
  rt: WildfireRuntime;
  db: TestDatabase;
  /** A live token with risk:read. */
  live: string;
  /** The 106 municipalities of Sevilla, in code order. */
  sevillaCodes: string[];
  token(scopes?: TokenScope[], extra?: { type?: 'live' | 'test'; municipios?: string[] }): Promise<string>;
  get(path: string, bearer?: string): request.Test;
  close(): Promise<void>;
}

/**
 * Wildfire on its own Postgres database with the nomenclator coordinates of Sevilla and
 * Tenerife and stored readings of `DAY`: every Sevilla municipality with an FWI from 0 to
 * 62 (every EFFIS class occurs; Sevilla itself, 41091, is extreme at 61.5), and 38001 and
 * 38038 at 25.
 */
export async function startTerritoryFixture(name: string, clock: () => Date = () => NOW): Promise<TerritoryFixture> {
  const db = await createTestDatabase(name);
  const rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_RATE_LIMIT_DATA: '1000', WILDFIRE_RATE_LIMIT_TERRITORY: '1000' }), 'api', { clock });
  const file = join(shortTempDir(), 'nomenclator.csv');
  writeFileSync(file, SEVILLA_TENERIFE_NOMENCLATOR);
  await rt.ingest.municipalities(file);
  const sevillaCodes = SEVILLA_TENERIFE_NOMENCLATOR.split('\n').map((l) => l.split(',')[0]!).filter((c) => c.startsWith('41'));
  for (const [i, code] of sevillaCodes.entries()) await storeReading(rt, code, DAY, code === '41091' ? 61.5 : (i * 7.3) % 62);
  for (const code of ['38001', '38038']) await storeReading(rt, code, DAY, 25);
  const token = async (scopes: TokenScope[] = ['risk:read'], extra: { type?: 'live' | 'test'; municipios?: string[] } = {}) =>
    (await rt.tokens.create({ account: 'cecop', type: extra.type ?? 'live', scopes, municipios: extra.municipios })).token;
  const live = await token();
  return {
    rt,
    db,
    live,
    sevillaCodes,
    token,
    get: (path, bearer = live) => request(rt.server!).get(path).set('Authorization', `Bearer ${bearer}`),
    async close() {
      await rt.close();
      await db.drop();
    },
  };
}
