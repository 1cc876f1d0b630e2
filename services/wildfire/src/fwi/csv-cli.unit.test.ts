import { CFFDRS_INPUT_COLUMNS, CFFDRS_TEST_FWI_EXPECTED, CFFDRS_TEST_FWI_INPUT } from './__fixtures__/cffdrs-test-fwi';
import { referenceTolerance } from './__fixtures__/reference-tolerance';
import { FwiUsageError, parseFwiArgs, runFwiCsv } from './csv-cli';
import { FWI_OUTPUT_COLUMNS, FwiInputError } from './csv-layout';
import { computeSeries } from './series';

/** cffdrs's data/test_fwi.csv, rebuilt from the fixture numbers. */
function cffdrsCsv(delimiter: string, header: readonly string[] = CFFDRS_INPUT_COLUMNS): string {
  return [header.join(delimiter), ...CFFDRS_TEST_FWI_INPUT.map((row) => row.join(delimiter))].join('\n') + '\n';
}

function table(csv: string, delimiter: string): string[][] {
  return csv
    .trimEnd()
    .split('\n')
    .map((line) => line.split(delimiter));
}

function expectInputError(run: () => unknown, message: string, line: number, column?: string): void {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(FwiInputError);
  expect((error as FwiInputError).message).toBe(message);
  expect((error as FwiInputError).line).toBe(line);
  expect((error as FwiInputError).column).toBe(column);
}

const HEADER = 'lat,mon,temp,rh,ws,prec';

describe('runFwiCsv', () => {
  it('reads cffdrs’s own ;-separated test file and writes its columns plus the seven outputs, matching the reference', () => {
    const rows = table(runFwiCsv(cffdrsCsv(';')), ';');
    expect(rows[0]).toEqual([...CFFDRS_INPUT_COLUMNS, ...FWI_OUTPUT_COLUMNS]);
    expect(rows).toHaveLength(49);
    CFFDRS_TEST_FWI_INPUT.forEach((input, day) => {
      const row = rows[day + 1] ?? [];
      expect(row.slice(0, 9)).toEqual(input.map(String));
      row.slice(9).forEach((text, k) => {
        const expected = CFFDRS_TEST_FWI_EXPECTED[day]?.[k] ?? NaN;
        // Output rounding (half of 1e-4) plus the reference's own precision.
        expect({ day, column: FWI_OUTPUT_COLUMNS[k], off: Math.abs(Number(text) - expected) <= 5e-5 + referenceTolerance(expected) }).toEqual({
          day,
          column: FWI_OUTPUT_COLUMNS[k],
          off: true,
        });
      });
    });
  });

  it('writes outputs rounded to 4 decimals without trailing zeros', () => {
    const rows = table(runFwiCsv(cffdrsCsv(';')), ';');
    expect(rows[1]?.slice(9)).toEqual(['87.6494', '8.5451', '19.014', '10.7762', '8.4904', '10.0362', '1.6119']);
    expect(rows[10]?.[15]).toBe('0');
  });

  it('reads ,-separated input with upper-case names and answers with ,', () => {
    const upper = runFwiCsv(cffdrsCsv(',', CFFDRS_INPUT_COLUMNS.map((c) => c.toUpperCase())));
    const rows = table(upper, ',');
    expect(rows[0]).toEqual([...CFFDRS_INPUT_COLUMNS.map((c) => c.toUpperCase()), ...FWI_OUTPUT_COLUMNS]);
    expect(rows.slice(1)).toEqual(table(runFwiCsv(cffdrsCsv(';')), ';').slice(1));
  });

  it('accepts R’s write.csv output: quoted header, CRLF line ends, a byte-order mark, blank lines', () => {
    const csv = '\uFEFF"lat","mon","temp","rh","ws","prec"\r\n40,4,17,42,25,0\r\n\r\n40,4,20,21,25,2.4\r\n';
    expect(table(runFwiCsv(csv), ',').map((row) => row[6])).toEqual(['ffmc', '87.6494', '86.2009']);
  });

  it('keeps each id’s series separate, in input order', () => {
    const a = CFFDRS_TEST_FWI_INPUT.slice(0, 12);
    const b = CFFDRS_TEST_FWI_INPUT.slice(24, 36);
    const header = ['id', ...CFFDRS_INPUT_COLUMNS].join(';');
    const lines = (id: string, rows: typeof a) => rows.map((row) => [id, ...row].join(';'));
    const alone = (id: string, rows: typeof a) => table(runFwiCsv([header, ...lines(id, rows)].join('\n')), ';').slice(1);
    const interleaved = [header, ...a.flatMap((row, i) => [...lines('A', [row]), ...lines('B', [b[i] ?? row])])].join('\n');
    const out = table(runFwiCsv(interleaved), ';').slice(1);
    expect(out.map((row) => row[0])).toEqual(a.flatMap(() => ['A', 'B']));
    expect(out.filter((row) => row[0] === 'A')).toEqual(alone('A', a));
    expect(out.filter((row) => row[0] === 'B')).toEqual(alone('B', b));
  });

  it('honours the start values', () => {
    const csv = `${HEADER}\n40,4,17,42,25,0\n`;
    const [day] = computeSeries([{ lat: 40, month: 4, temp: 17, rh: 42, ws: 25, prec: 0 }], { ffmc: 70, dmc: 20, dc: 200 });
    const row = table(runFwiCsv(csv, { ffmc0: 70, dmc0: 20, dc0: 200 }), ',')[1] ?? [];
    expect(row.slice(6, 9).map(Number)).toEqual([day?.ffmc, day?.dmc, day?.dc].map((v) => Number(v?.toFixed(4))));
    expect(row).not.toEqual(table(runFwiCsv(csv), ',')[1]);
  });

  it('carries the codes over a gap in the dates, as if the days were consecutive', () => {
    const gap = runFwiCsv('lat,yr,mon,day,temp,rh,ws,prec\n40,1985,4,1,17,42,25,0\n40,1985,4,9,20,21,25,2.4\n');
    const consecutive = runFwiCsv('lat,yr,mon,day,temp,rh,ws,prec\n40,1985,4,1,17,42,25,0\n40,1985,4,2,20,21,25,2.4\n');
    expect(table(gap, ',').map((row) => row.slice(8))).toEqual(table(consecutive, ',').map((row) => row.slice(8)));
  });

  it('passes unknown columns through and quotes fields that contain the delimiter', () => {
    const out = runFwiCsv('station;lat;mon;temp;rh;ws;prec\n"Las Palmas; GC";28.1;4;20;40;10;0\n');
    expect(out.split('\n')[1]).toMatch(/^"Las Palmas; GC";28\.1;4;20;40;10;0;/);
  });

  it('writes only the header for a header without rows', () => {
    expect(runFwiCsv(`${HEADER}\n`)).toBe(`${HEADER},${FWI_OUTPUT_COLUMNS.join(',')}\n`);
  });
});

describe('runFwiCsv on bad input', () => {
  const ok = '40,4,17,42,25,0';
  const withRow = (row: string, at = 7) => [HEADER, ...Array.from({ length: at - 2 }, () => ok), row].join('\n');

  it('names the line and column of a value that is not a number', () => {
    expectInputError(() => runFwiCsv(withRow('40,4,17,abc,25,0')), 'line 7, column "rh": expected a number between 0 and 100, got "abc"', 7, 'rh');
  });

  it('rejects relative humidity outside 0–100, negative wind and negative rain', () => {
    expectInputError(() => runFwiCsv(withRow('40,4,17,100.5,25,0', 3)), 'line 3, column "rh": expected a number between 0 and 100, got "100.5"', 3, 'rh');
    expectInputError(() => runFwiCsv(withRow('40,4,17,-1,25,0', 2)), 'line 2, column "rh": expected a number between 0 and 100, got "-1"', 2, 'rh');
    expectInputError(() => runFwiCsv(withRow('40,4,17,42,-3,0', 4)), 'line 4, column "ws": expected a wind speed in km/h, 0 or more, got "-3"', 4, 'ws');
    expectInputError(() => runFwiCsv(withRow('40,4,17,42,25,-0.2', 5)), 'line 5, column "prec": expected a precipitation in mm, 0 or more, got "-0.2"', 5, 'prec');
  });

  it('uses the header’s spelling of the column name', () => {
    expectInputError(() => runFwiCsv('LAT;MON;TEMP;RH;WS;PREC\n40;4;17;42;25;\n'), 'line 2, column "PREC": expected a precipitation in mm, 0 or more, got ""', 2, 'PREC');
  });

  it('rejects an impossible month or day, a latitude off the globe and Kelvin temperatures', () => {
    expectInputError(() => runFwiCsv(withRow('40,13,17,42,25,0', 2)), 'line 2, column "mon": expected a month from 1 to 12, got "13"', 2, 'mon');
    expectInputError(() => runFwiCsv(withRow('95,4,17,42,25,0', 2)), 'line 2, column "lat": expected a latitude between -90 and 90, got "95"', 2, 'lat');
    expectInputError(() => runFwiCsv(withRow('40,4,290.15,42,25,0', 2)), 'line 2, column "temp": expected a temperature in °C between -90 and 60, got "290.15"', 2, 'temp');
    expectInputError(
      () => runFwiCsv('lat,yr,mon,day,temp,rh,ws,prec\n40,2023,2,29,17,42,25,0\n'),
      'line 2, column "day": expected a day of the month from 1 to 28, got "29"',
      2,
      'day',
    );
  });

  it('names every missing required column', () => {
    expectInputError(
      () => runFwiCsv('long;lat;yr;mon;day;temp;ws\n'),
      'line 1: missing required columns "rh", "prec" (required: lat, mon, temp, rh, ws, prec; optional: id, long, yr, day)',
      1,
      'rh',
    );
  });

  it('rejects a row with the wrong number of fields, counting blank lines in the line number', () => {
    expectInputError(() => runFwiCsv(`${HEADER}\n\n${ok}\n40,4,17,42,25\n`), 'line 4: expected 6 fields like the header, got 5', 4);
  });

  it('rejects empty input, repeated columns and output columns in the input', () => {
    expectInputError(() => runFwiCsv('\n \n'), 'line 1: the input is empty; expected a header with the columns lat, mon, temp, rh, ws, prec', 1);
    expectInputError(() => runFwiCsv(`${HEADER},RH\n`), 'line 1, column "RH": appears more than once', 1, 'RH');
    expectInputError(() => runFwiCsv(`${HEADER},FFMC\n`), 'line 1, column "FFMC": is an output column; remove it from the input', 1, 'FFMC');
  });

  it('rejects start values out of range', () => {
    expect(() => runFwiCsv(`${HEADER}\n`, { ffmc0: 102 })).toThrow(FwiUsageError);
    expect(() => runFwiCsv(`${HEADER}\n`, { dmc0: -1 })).toThrow('--dmc0 must be a number >= 0, got -1');
    expect(() => runFwiCsv(`${HEADER}\n`, { dc0: Number.NaN })).toThrow(FwiUsageError);
  });
});

describe('parseFwiArgs', () => {
  it('reads --ffmc0, --dmc0 and --dc0 as separate or =-joined values', () => {
    expect(parseFwiArgs([])).toEqual({});
    expect(parseFwiArgs(['--ffmc0', '80', '--dmc0=12.5', '--dc0', '150'])).toEqual({ ffmc0: 80, dmc0: 12.5, dc0: 150 });
  });

  it('accepts the ends of the ranges', () => {
    expect(parseFwiArgs(['--ffmc0', '0', '--dmc0', '0', '--dc0', '0'])).toEqual({ ffmc0: 0, dmc0: 0, dc0: 0 });
    expect(parseFwiArgs(['--ffmc0=101'])).toEqual({ ffmc0: 101 });
  });

  it.each([
    [['--ffmc0', '101.5'], '--ffmc0 must be a number between 0 and 101, got "101.5"'],
    [['--ffmc0', '-1'], '--ffmc0 must be a number between 0 and 101, got "-1"'],
    [['--dmc0', '-0.1'], '--dmc0 must be a number >= 0, got "-0.1"'],
    [['--dc0=-5'], '--dc0 must be a number >= 0, got "-5"'],
    [['--dc0', 'abc'], '--dc0 must be a number >= 0, got "abc"'],
    [['--dc0'], '--dc0 needs a value: a number >= 0'],
    [['--dmc0', '5', '--dmc0', '6'], '--dmc0 given more than once'],
    [['--bui0', '5'], /^unknown argument "--bui0"/],
    [['weather.csv'], /^unknown argument "weather.csv"/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseFwiArgs(argv)).toThrow(FwiUsageError);
    expect(() => parseFwiArgs(argv)).toThrow(message);
  });
});
