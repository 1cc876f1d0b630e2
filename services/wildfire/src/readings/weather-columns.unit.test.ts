import { isoOfPgDay } from '../db/binary-copy';
import { firstRepeat, orderByMunicipalityAndDay, WeatherColumns } from './weather-columns';

/** Columns from [municipio_id, date] rows on lines 2, 3, …; the weather is the line number, to follow rows. */
function columnsOf(rows: [string, string][]): WeatherColumns {
  const w = new WeatherColumns();
  rows.forEach(([code, date], i) => w.push(code, date, i + 2, i + 2, 50, 10, 0));
  return w;
}

/** Each municipality's rows as "date@line", in the grouped order. */
function grouped(w: WeatherColumns): Record<string, string[]> {
  const { order, start } = orderByMunicipalityAndDay(w);
  return Object.fromEntries(w.codes.map((code, m) => [code, [...order.subarray(start[m]!, start[m + 1]!)].map((i) => `${isoOfPgDay(w.day[i]!)}@${w.line[i]}`)]));
}

describe('weather rows grouped per municipality and date', () => {
  it('groups the rows of a municipality that are not contiguous and sorts them by date', () => {
    const w = columnsOf([
      ['28079', '2024-06-02'],
      ['41091', '2024-06-01'],
      ['28079', '2024-06-01'],
      ['41091', '2024-06-03'],
      ['28079', '2024-06-03'],
      ['41091', '2024-06-02'],
    ]);
    expect(grouped(w)).toEqual({
      '28079': ['2024-06-01@4', '2024-06-02@2', '2024-06-03@6'],
      '41091': ['2024-06-01@3', '2024-06-02@7', '2024-06-03@5'],
    });
    expect(w.temp[w.length - 1]).toBe(7);
  });

  it('grows past its initial capacity without losing rows', () => {
    const rows: [string, string][] = [];
    for (let i = 0; i < 3000; i++) rows.push([i % 2 === 0 ? '28079' : '41091', isoOfPgDay(9000 + Math.floor(i / 2))]);
    const w = columnsOf(rows);
    expect(w.length).toBe(3000);
    const g = grouped(w);
    expect(g['28079']).toHaveLength(1500);
    expect(g['41091']![1499]).toBe(`${isoOfPgDay(9000 + 1499)}@3001`);
  });
});

describe('firstRepeat: the repeated municipality-day a reader meets first', () => {
  it('finds none when every municipality-day is unique', () => {
    const w = columnsOf([
      ['28079', '2024-06-01'],
      ['41091', '2024-06-01'],
    ]);
    expect(firstRepeat(w, orderByMunicipalityAndDay(w))).toBeNull();
  });

  it('names the repeat with the lowest second line and the line it first appeared on, across municipalities', () => {
    const w = columnsOf([
      ['28079', '2024-06-05'], // line 2
      ['41091', '2024-06-01'], // line 3
      ['28079', '2024-06-01'], // line 4
      ['41091', '2024-06-01'], // line 5: repeats line 3
      ['28079', '2024-06-05'], // line 6: repeats line 2, but later
      ['41091', '2024-06-01'], // line 7: a third time
    ]);
    expect(firstRepeat(w, orderByMunicipalityAndDay(w))).toEqual({ municipio_id: '41091', day: w.day[1], first: 3, again: 5 });
  });

  it('takes the second appearance when a day appears three times', () => {
    const w = columnsOf([
      ['28079', '2024-06-02'],
      ['28079', '2024-06-01'],
      ['28079', '2024-06-02'],
      ['28079', '2024-06-02'],
    ]);
    expect(firstRepeat(w, orderByMunicipalityAndDay(w))).toMatchObject({ municipio_id: '28079', first: 2, again: 4 });
  });
});
