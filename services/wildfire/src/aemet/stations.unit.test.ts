import { dmsToDegrees, parseInventory } from './stations';
import { fixture } from './__tests__/fake-aemet-server';

describe('AEMET station inventory', () => {
  it('reads DDMMSS latitudes and DDDMMSS longitudes with their hemisphere', () => {
    expect(dmsToDegrees('394924N', 'lat')).toBeCloseTo(39 + 49 / 60 + 24 / 3600, 9);
    expect(dmsToDegrees('025309E', 'lon')).toBeCloseTo(2 + 53 / 60 + 9 / 3600, 9);
    expect(dmsToDegrees('034041W', 'lon')).toBeCloseTo(-(3 + 40 / 60 + 41 / 3600), 9);
    expect(dmsToDegrees('282748S', 'lat')).toBeLessThan(0);
    expect(dmsToDegrees('0161519W', 'lon')).toBeCloseTo(-(16 + 15 / 60 + 19 / 3600), 9);
  });

  it('refuses malformed positions instead of guessing', () => {
    for (const bad of ['4O2443N', '402443', '406043N', '402460N', '34041W', '']) expect(dmsToDegrees(bad, 'lat')).toBeNull();
    expect(dmsToDegrees('34041W', 'lon')).toBeNull();
    expect(dmsToDegrees('034041N', 'lon')).toBeNull();
  });

  it('keeps the recorded inventory’s stations with a position and an altitude, and counts the rest', () => {
    const { stations, skipped } = parseInventory(fixture('inventario-estaciones.json'));
    expect(skipped).toBe(1);
    expect(stations).toHaveLength(8);
    const retiro = stations.find((s) => s.id === '3195')!;
    expect(retiro).toEqual({ id: '3195', name: 'MADRID, RETIRO', lat: expect.closeTo(40.411944, 5), lon: expect.closeTo(-3.678056, 5), altitudeM: 667 });
    expect(stations.find((s) => s.id === '9170')!.name).toBe('LOGROÑO AEROPUERTO');
  });

  it('refuses an answer that is not an array', () => {
    expect(() => parseInventory({ descripcion: 'exito' })).toThrow(/not a JSON array/);
  });
});
