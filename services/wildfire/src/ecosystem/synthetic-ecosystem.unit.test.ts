import { provinceOf, type ClimateZone } from '../municipalities/provinces';
import { registryMunicipalities } from '../municipalities/registry';
import { FUEL_MODELS, vegetationTypeInfo, type VegetationType } from './classes';
import { syntheticEcosystem, ZONE_VEGETATION, type EcosystemValues } from './synthetic-ecosystem';

const all = registryMunicipalities().map((m) => ({ code: m.ineCode, zone: provinceOf(m.ineCode)!.climate, ...syntheticEcosystem(m.ineCode) }));
const inZone = (zone: ClimateZone) => all.filter((m) => m.zone === zone);
const share = (rows: EcosystemValues[], types: VegetationType[]) => rows.filter((r) => types.includes(r.vegetationType)).length / rows.length;
const FORESTS: VegetationType[] = ['conifer_forest', 'broadleaf_forest', 'mixed_forest'];
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('the synthetic ecosystem of test tokens', () => {
  it('gives the same profile to the same municipality, and neighbours different ones', () => {
    expect(syntheticEcosystem('41091')).toEqual(syntheticEcosystem('41091'));
    const seville = all.filter((m) => m.code.startsWith('41'));
    expect(new Set(seville.map((m) => JSON.stringify([m.vegetationType, m.fuelModel, m.fuelLoadTHa]))).size).toBeGreaterThan(seville.length / 2);
  });

  it('keeps every municipality within the rules the importer enforces', () => {
    for (const m of all) {
      const burnable = vegetationTypeInfo(m.vegetationType)!.burnable;
      expect(m.fuelModel === null).toBe(!burnable);
      if (m.fuelModel !== null) expect(FUEL_MODELS.map((f) => f.code)).toContain(m.fuelModel);
      expect(m.fuelLoadTHa).toBeGreaterThanOrEqual(0);
      expect(m.fuelLoadTHa).toBeLessThanOrEqual(burnable ? 60 : 0);
      expect(m.forestCoverPct).toBeGreaterThanOrEqual(0);
      expect(m.forestCoverPct).toBeLessThanOrEqual(100);
    }
  });

  it('draws only the vegetation types its zone lists, nine kinds in all', () => {
    for (const [zone, weights] of Object.entries(ZONE_VEGETATION) as [ClimateZone, (typeof ZONE_VEGETATION)[ClimateZone]][]) {
      const drawn = new Set(inZone(zone).map((m) => m.vegetationType));
      for (const type of drawn) expect(weights.map(([t]) => t)).toContain(type);
    }
    expect(new Set(all.map((m) => m.vegetationType)).size).toBeGreaterThanOrEqual(9);
  });

  it('makes the Atlantic north mostly forest and the southern interior mostly farmland and dehesa', () => {
    expect(share(inZone('oceanic'), FORESTS)).toBeGreaterThan(0.5);
    expect(share(inZone('southern_inland'), FORESTS)).toBeLessThan(0.25);
    expect(share(inZone('southern_inland'), ['agricultural', 'dehesa'])).toBeGreaterThan(0.4);
    expect(inZone('oceanic').some((m) => m.vegetationType === 'dehesa')).toBe(false);
  });

  it('puts lava and rock in the Canaries and more pine in the high Meseta than in the low', () => {
    expect(share(inZone('subtropical'), ['bare_rock'])).toBeGreaterThan(0.1);
    const meseta = inZone('continental');
    const high = meseta.filter((m) => provinceOf(m.code)!.altitude > 850);
    const low = meseta.filter((m) => provinceOf(m.code)!.altitude <= 850);
    expect(share(high, ['conifer_forest'])).toBeGreaterThan(1.5 * share(low, ['conifer_forest']));
  });

  it('gives forests denser canopies and heavier fuel than farmland', () => {
    const forests = all.filter((m) => FORESTS.includes(m.vegetationType));
    const farms = all.filter((m) => m.vegetationType === 'agricultural');
    expect(Math.min(...forests.map((m) => m.forestCoverPct))).toBeGreaterThan(Math.max(...farms.map((m) => m.forestCoverPct)));
    expect(mean(forests.map((m) => m.fuelLoadTHa))).toBeGreaterThan(2 * mean(farms.map((m) => m.fuelLoadTHa)));
  });

  it('refuses a code outside provinces 01–52', () => {
    expect(() => syntheticEcosystem('53001')).toThrow(RangeError);
  });
});
