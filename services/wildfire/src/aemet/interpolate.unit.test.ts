import { distanceKm, interpolateNoon, LAPSE_RATE_C_PER_KM, MAX_DISTANCE_KM, type NoonStation } from './interpolate';

const station = (id: string, lat: number, lon: number, altitudeM: number | null, temp: number, extra: Partial<NoonStation> = {}): NoonStation => ({
  id,
  lat,
  lon,
  altitudeM,
  temp,
  rh: 30,
  ws: 10,
  prec: 0,
  ...extra,
});

describe('station to municipality interpolation', () => {
  it('measures great-circle distances (1° of latitude is about 111.2 km)', () => {
    expect(distanceKm(40, -3, 41, -3)).toBeCloseTo(111.2, 1);
    expect(distanceKm(40.4168, -3.7038, 40.4168, -3.7038)).toBe(0);
  });

  it('weights the nearest stations by 1/d² and moves temperatures to the municipality’s altitude', () => {
    const point = { lat: 40, lon: -3, altitudeM: 500 };
    // Two stations due north, 0.1° (11.12 km) and 0.2° (22.24 km) away.
    const near = station('A', 40.1, -3, 700, 20, { rh: 40, ws: 10, prec: 2 });
    const far = station('B', 40.2, -3, 300, 30, { rh: 20, ws: 20, prec: 0 });
    const result = interpolateNoon(point, [far, near])!;
    const [dA, dB] = [distanceKm(40, -3, 40.1, -3), distanceKm(40, -3, 40.2, -3)];
    const wA = 1 / dA ** 2 / (1 / dA ** 2 + 1 / dB ** 2);
    expect(wA).toBeCloseTo(0.8, 3);
    // A: 20 + 6.5 × 0.2 = 21.3 °C at 500 m; B: 30 − 6.5 × 0.2 = 28.7 °C.
    expect(result.temp).toBe(Number((wA * 21.3 + (1 - wA) * 28.7).toFixed(1)));
    expect(result.rh).toBe(Number((wA * 40 + (1 - wA) * 20).toFixed(1)));
    expect(result.ws).toBe(Number((wA * 10 + (1 - wA) * 20).toFixed(1)));
    expect(result.prec).toBe(Number((wA * 2).toFixed(1)));
    expect(result.provenance).toEqual({
      source: 'aemet_observations',
      method: 'idw',
      power: 2,
      max_distance_km: MAX_DISTANCE_KM,
      lapse_rate_c_per_km: LAPSE_RATE_C_PER_KM,
      stations: [
        { id: 'A', distance_km: Number(dA.toFixed(2)), weight: Number(wA.toFixed(4)), altitude_m: 700 },
        { id: 'B', distance_km: Number(dB.toFixed(2)), weight: Number((1 - wA).toFixed(4)), altitude_m: 300 },
      ],
    });
  });

  it('uses at most four stations, and none beyond the distance limit', () => {
    const many = [0.05, 0.1, 0.15, 0.2, 0.25].map((d, i) => station(`S${i}`, 40 + d, -3, 500, 20));
    const outside = station('FAR', 40.5, -3, 500, 40);
    const result = interpolateNoon({ lat: 40, lon: -3, altitudeM: 500 }, [outside, ...many])!;
    expect(result.provenance.stations.map((s) => s.id)).toEqual(['S0', 'S1', 'S2', 'S3']);
    expect(result.temp).toBe(20);
  });

  it('gives no reading when no station is in range', () => {
    expect(interpolateNoon({ lat: 37.39, lon: -5.98, altitudeM: 7 }, [station('A', 40.4, -3.7, 667, 31)])).toBeNull();
  });

  it('corrects no temperature when an altitude is unknown, and says so', () => {
    const result = interpolateNoon({ lat: 40, lon: -3, altitudeM: null }, [station('A', 40.1, -3, 1500, 20)])!;
    expect(result.temp).toBe(20);
    expect(result.provenance.lapse_rate_c_per_km).toBeNull();
  });

  it('lets a station on the municipality’s point stand alone', () => {
    const result = interpolateNoon({ lat: 40, lon: -3, altitudeM: 500 }, [station('ON', 40, -3, 500, 25), station('B', 40.05, -3, 500, 35)])!;
    expect(result.provenance.stations).toEqual([{ id: 'ON', distance_km: 0, weight: 1, altitude_m: 500 }]);
    expect(result.temp).toBe(25);
  });
});
