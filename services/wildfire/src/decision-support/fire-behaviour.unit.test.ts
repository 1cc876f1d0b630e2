import { CFFDRS_ROS } from './__fixtures__/cffdrs-rate-of-spread';
import { fireBehaviourOf, FUEL_TYPE_OF_MODEL, headFireIntensity, headFireRateOfSpread, intensityClassOf } from './fire-behaviour';

describe('fire behaviour from ISI, BUI and the ecosystem (FBP System, Byram intensity)', () => {
  it.each(CFFDRS_ROS.map((r) => [r.type, r.isi, r.bui, r.cc, r.ros] as const))('%s at ISI %p, BUI %p, curing %p %% spreads at %p m/min, as cffdrs', (type, isi, bui, cc, ros) => {
    expect(headFireRateOfSpread(type, isi, bui, cc)).toBeCloseTo(ros, 9);
  });

  it('puts the intensity classes at the CWFIS bounds, lower bounds included', () => {
    expect([0, 9.99, 10, 499.9, 500, 1999, 2000, 3999, 4000, 9999, 10000, 60000].map((kw) => intensityClassOf(kw).class)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
  });

  it('computes the intensity of a head fire consuming the whole surface fuel load (kW/m = 300 · kg/m² · m/min)', () => {
    expect(headFireIntensity(1.2, 10)).toBe(3600);
    const b = fireBehaviourOf(12, 100, { fuelModel: 6, fuelLoadTHa: 12 });
    expect(b.fbpFuelType).toBe('C-7');
    expect(b.rateOfSpreadMMin).toBeCloseTo(headFireRateOfSpread('C-7', 12, 100), 12);
    expect(b.headFireIntensityKwM).toBeCloseTo(300 * 1.2 * b.rateOfSpreadMMin!, 9);
    expect(b.intensityClass).toBe(intensityClassOf(b.headFireIntensityKwM!).class);
  });

  it('grows with ISI and with BUI', () => {
    const at = (isi: number, bui: number) => fireBehaviourOf(isi, bui, { fuelModel: 11, fuelLoadTHa: 25.8 }).headFireIntensityKwM!;
    expect(at(5, 60)).toBeLessThan(at(15, 60));
    expect(at(15, 30)).toBeLessThan(at(15, 120));
  });

  it('answers "no surface fire spread expected" for non-burnable land and for no fuel, with no number', () => {
    for (const eco of [{ fuelModel: null, fuelLoadTHa: 0 }, { fuelModel: 2, fuelLoadTHa: 0 }]) {
      const b = fireBehaviourOf(30, 200, eco);
      expect(b).toMatchObject({ behaviourClass: 'no_spread', rateOfSpreadMMin: null, headFireIntensityKwM: null, intensityClass: null });
      expect(b.explanation).toMatch(/^No se espera propagación de fuego de superficie/);
    }
  });

  it('gives every Anderson model 1–13 an FBP type', () => {
    expect(Object.keys(FUEL_TYPE_OF_MODEL).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });
});
