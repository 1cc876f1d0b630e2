import { pgDayOf } from '../db/binary-copy';
import { computeSeries, type WeatherDay } from '../fwi/series';
import { riskLabel, riskScore } from '../risk/risk-score';
import { computeReadings } from './compute-readings';
import { LABEL_NUMBER, READING_VALUE_COLUMNS, ReadingColumns } from './reading-columns';
import { orderByMunicipalityAndDay, WeatherColumns } from './weather-columns';

/** A small deterministic generator (mulberry32), so a failure names a reproducible series. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Noon weather over the whole range the validator accepts: frost to heat waves, dry air to fog, calm to gales, dry spells and downpours. */
function weatherSeries(seed: number, days: number): Omit<WeatherDay, 'lat' | 'month'>[] {
  const next = random(seed);
  const round1 = (x: number) => Math.round(x * 10) / 10;
  return Array.from({ length: days }, () => {
    const wet = next() < 0.3;
    return {
      temp: round1(-8 + next() * 50),
      rh: Math.round(next() < 0.05 ? 100 : 3 + next() * 97),
      ws: round1(next() * 60),
      prec: wet ? round1(next() < 0.2 ? 20 + next() * 80 : next() * 12) : 0,
    };
  });
}

const isoDays = (from: string, count: number) =>
  Array.from({ length: count }, (_, i) => new Date(Date.UTC(Number(from.slice(0, 4)), Number(from.slice(5, 7)) - 1, Number(from.slice(8, 10)) + i)).toISOString().slice(0, 10));

describe('computeReadings (the ingestion\'s loop over typed columns)', () => {
  it('gives, bit for bit, what the per-day object path (fwi/series.ts computeSeries) gives on generated series', () => {
    // Three municipalities far apart in latitude (Canarias, Madrid, Cantabria: different day-length tables),
    // two years each, their rows interleaved in the file as an export by date would write them.
    const places = [
      { code: '35016', lat: 28.1, seed: 1 },
      { code: '28079', lat: 40.4, seed: 2 },
      { code: '39075', lat: 43.46, seed: 3 },
    ];
    const days = isoDays('2023-01-01', 731);
    const series = places.map((p) => weatherSeries(p.seed, days.length));
    const weather = new WeatherColumns();
    let line = 2;
    days.forEach((iso, d) => places.forEach((p, m) => {
      const w = series[m]![d]!;
      weather.push(p.code, iso, line++, w.temp, w.rh, w.ws, w.prec);
    }));

    const result = computeReadings(weather, orderByMunicipalityAndDay(weather), (m) => places[m]!.lat, [], new ReadingColumns());

    expect(result.computed).toBe(places.length * days.length);
    expect(result.inserts.length).toBe(places.length * days.length);
    expect(result.updates.length).toBe(0);
    const inserts = result.inserts;
    // The readings leave in primary-key order: municipalities by code, each by date.
    const byCode = places.map((p, m) => ({ ...p, m })).sort((a, b) => (a.code < b.code ? -1 : 1));
    let row = 0;
    for (const place of byCode) {
      const expected = computeSeries(series[place.m]!.map((w, d) => ({ ...w, lat: place.lat, month: Number(days[d]!.slice(5, 7)) })));
      for (let d = 0; d < days.length; d++, row++) {
        const e = expected[d]!;
        const w = series[place.m]![d]!;
        expect(weather.codes[inserts.municipality[row]!]).toBe(place.code);
        expect(inserts.day[row]).toBe(pgDayOf(days[d]!));
        const want = [w.temp, w.rh, w.ws, w.prec, e.ffmc, e.dmc, e.dc, e.isi, e.bui, e.fwi, e.dsr, riskScore(e.fwi)];
        const got = READING_VALUE_COLUMNS.map((_, k) => inserts.values[k]![row]!);
        // Object.is: the same doubles, not merely close ones.
        for (let k = 0; k < want.length; k++) {
          if (!Object.is(got[k], want[k])) throw new Error(`${place.code} ${days[d]} ${READING_VALUE_COLUMNS[k]}: typed path ${got[k]}, object path ${want[k]}`);
        }
        expect(inserts.label[row]).toBe(LABEL_NUMBER[riskLabel(e.fwi)]);
      }
    }
    // The series did reach every label, so the comparison covered each branch of the classes.
    expect(new Set(inserts.label.subarray(0, inserts.length))).toEqual(new Set([0, 1, 2]));
  });
});
