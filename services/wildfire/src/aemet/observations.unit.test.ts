import { noonInstant, noonUtcHour, parseObservations, stationNoon } from './observations';
import { fixture } from './__tests__/fake-aemet-server';

const recorded = parseObservations(fixture('observaciones-todas.json'));
const hoursOf = (idema: string) => recorded.rows.filter((r) => r.idema === idema);

describe('AEMET conventional observations', () => {
  it('reads fint as UTC and keeps absent values as missing', () => {
    const alcala = hoursOf('3170Y').find((r) => r.fint === Date.parse('2025-07-16T11:00:00Z'))!;
    expect(alcala).toMatchObject({ ta: 32.5, hr: null, vv: 3.5, prec: 0 });
    expect(recorded.skipped).toBe(0);
  });

  it('flags implausible values and stores them as missing, never clamped', () => {
    expect(recorded.implausible).toEqual({ ta: 1, hr: 0, vv: 0, prec: 0 });
    expect(hoursOf('3200').find((r) => r.fint === Date.parse('2025-07-16T05:00:00Z'))!.ta).toBeNull();
    const parsed = parseObservations([{ idema: 'X', fint: '2025-07-16T11:00:00', hr: 0, vv: -1, prec: 500 }, { fint: '2025-07-16T11:00:00' }, { idema: 'Y', fint: 'yesterday' }]);
    expect(parsed.implausible).toEqual({ ta: 0, hr: 1, vv: 1, prec: 1 });
    expect(parsed.skipped).toBe(2);
  });

  it('takes noon local standard time: 11 UTC on the peninsula and the Balearics, 12 UTC in the Canaries', () => {
    expect(noonUtcHour(40.4)).toBe(11);
    expect(noonUtcHour(39.57)).toBe(11);
    expect(noonUtcHour(28.46)).toBe(12);
    expect(new Date(noonInstant('2025-07-16', 28.46)).toISOString()).toBe('2025-07-16T12:00:00.000Z');
  });

  it('gives a station’s noon values, wind in km/h and the rain of the 24 hours to noon', () => {
    // Retiro: 1.2 mm at 18 UTC and 0.4 mm at 03 UTC fall in (11 UTC on the 15th, 11 UTC on the 16th].
    expect(stationNoon(hoursOf('3195'), '2025-07-16', 40.41)).toEqual({ temp: 31, rh: 28, ws: 7.2, prec: expect.closeTo(1.6, 10) });
    // Getafe's 2.0 mm fell in the hour ending at 12 UTC on the 15th: the first hour of the 16th's window.
    expect(stationNoon(hoursOf('3200'), '2025-07-16', 40.3)).toMatchObject({ temp: 33, prec: 2 });
    // The Canaries' window runs 13 UTC to 12 UTC: the 5 mm of 12 UTC on the 15th are out, the 0.8 mm of 12 UTC on the 16th in.
    expect(stationNoon(hoursOf('C449C'), '2025-07-16', 28.46)).toEqual({ temp: 27, rh: 60, ws: expect.closeTo(21.6, 10), prec: 0.8 });
  });

  it('gives nothing rather than inventing a missing noon value or a missing hour of rain', () => {
    expect(stationNoon(hoursOf('3170Y'), '2025-07-16', 40.48)).toBe('missing_noon_value');
    expect(stationNoon(hoursOf('3194U'), '2025-07-16', 40.45)).toBe('incomplete_precipitation');
    expect(stationNoon(hoursOf('3195'), '2025-07-17', 40.41)).toBe('no_noon_observation');
    // The feed starts after the 15th's noon; a noon hour without its 24 hours of rain gives no precipitation.
    expect(stationNoon(hoursOf('3195'), '2025-07-15', 40.41)).toBe('no_noon_observation');
    const noonOnly = hoursOf('3195').filter((r) => r.fint === Date.parse('2025-07-16T11:00:00Z'));
    expect(stationNoon(noonOnly, '2025-07-16', 40.41)).toBe('incomplete_precipitation');
  });
});
