import { parseRegistryPoints, registryMunicipalities, registryPoints } from './registry';

describe('the built-in municipality points', () => {
  it('place every registry municipality, and nothing else', () => {
    const codes = registryMunicipalities().map((m) => m.ineCode);
    expect(codes).toHaveLength(8131);
    expect([...registryPoints().keys()].sort()).toEqual([...codes].sort());
  });

  it('carry the IGN/CNIG nomenclator 2024 values, to 4 decimals and whole metres', () => {
    // Nomenclator: 28079 Madrid 40.40841191, -3.68760088, 657 m; 38038 Santa Cruz de Tenerife 28.46285408, -16.24720629, 1 m;
    // 07032 Maó 39.889762, 4.264303, "32,88" m (a decimal altitude).
    expect(registryPoints().get('28079')).toEqual({ lat: 40.4084, lon: -3.6876, altitudeM: 657 });
    expect(registryPoints().get('38038')).toEqual({ lat: 28.4629, lon: -16.2472, altitudeM: 1 });
    expect(registryPoints().get('07032')).toEqual({ lat: 39.8898, lon: 4.2643, altitudeM: 33 });
  });

  it('lie in Spain, the Canaries included, at altitudes of Spain', () => {
    for (const [code, p] of registryPoints()) {
      const canaries = code.startsWith('35') || code.startsWith('38');
      expect([code, canaries ? p.lat > 27 && p.lat < 29.5 : p.lat > 35 && p.lat < 44]).toEqual([code, true]);
      expect([code, p.lon > -18.5 && p.lon < 4.6 && p.altitudeM >= -100 && p.altitudeM <= 3800]).toEqual([code, true]);
    }
  });

  it.each([
    ['a wrong header', 'code,lat,lon\n'],
    ['a missing altitude', 'ine_code,lat,lon,altitude_m\n28079,40.4,-3.7,\n'],
    ['an extra column', 'ine_code,lat,lon,altitude_m\n28079,40.4,-3.7,657,1\n'],
    ['a text value', 'ine_code,lat,lon,altitude_m\n28079,40.4,x,657\n'],
  ])('refuse %s (a packaging error, not something to seed)', (_label, text) => {
    expect(() => parseRegistryPoints(`# comment\n${text}`)).toThrow(/registry points/);
  });
});
