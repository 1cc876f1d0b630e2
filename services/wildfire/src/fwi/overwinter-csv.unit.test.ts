import { CFFDRS_OVERWINTER_CASES } from './__fixtures__/cffdrs-overwinter';
import { FwiInputError } from './csv-layout';
import { runOverwinterCsv } from './overwinter-csv';

function expectInputError(input: string, message: string, line: number, column?: string): void {
  let error: unknown;
  try {
    runOverwinterCsv(input);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(FwiInputError);
  expect({ message: (error as FwiInputError).message, line: (error as FwiInputError).line, column: (error as FwiInputError).column }).toEqual({ message, line, column });
}

describe('runOverwinterCsv', () => {
  it('appends dcs to every row of cffdrs’s reference cases, to 4 decimals', () => {
    const csv = ['dcf,rw,a,b', ...CFFDRS_OVERWINTER_CASES.map((c) => `${c.dcf},${c.rw},${c.a ?? ''},${c.b ?? ''}`)].join('\n');
    const rows = runOverwinterCsv(csv).trimEnd().split('\n');
    expect(rows[0]).toBe('dcf,rw,a,b,dcs');
    CFFDRS_OVERWINTER_CASES.forEach((c, k) => {
      const dcs = Number(rows[k + 1]!.split(',').at(-1));
      expect({ k, off: Math.abs(dcs - c.dcs) <= 5e-5 + 1e-9 }).toEqual({ k, off: true });
    });
    expect(rows[1]).toBe('300,110,,,109.4657');
    expect(rows[5]).toBe('250,200,0.75,0.75,15');
  });

  it('reads ;-separated input with names in any case and other columns, answering with ;', () => {
    // a = 1, b = 0.75: Qs = 800·e^(−0.75) + 0.75 · 3.94 · 110 = 702.94, DCs = 400 · ln(800 / 702.94) = 51.7342.
    const out = runOverwinterCsv('Station;DCF;Rw;A\r\n"Soria; centro";300;110;1\r\n\r\nBurgos;300;110;0.75\r\n');
    expect(out).toBe('Station;DCF;Rw;A;dcs\n"Soria; centro";300;110;1;51.7342\nBurgos;300;110;0.75;109.4657\n');
  });

  it('takes cffdrs’s defaults when a and b are absent', () => {
    expect(runOverwinterCsv('dcf,rw\n300,110\n')).toBe('dcf,rw,dcs\n300,110,109.4657\n');
  });

  it.each([
    ['', 'line 1: the input is empty; expected a header with the columns dcf, rw', 1, undefined],
    ['dcf,a\n1,1\n', 'line 1: missing required column "rw" (required: dcf, rw; optional: a, b)', 1, 'rw'],
    ['dcf,rw,DCS\n1,1,1\n', 'line 1, column "DCS": is an output column; remove it from the input', 1, 'DCS'],
    ['dcf,rw,Dcf\n1,1,1\n', 'line 1, column "Dcf": appears more than once', 1, 'Dcf'],
    ['dcf,rw\n300,110,1\n', 'line 2: expected 2 fields like the header, got 3', 2, undefined],
    ['dcf,rw\n\n300,"110\n', 'line 3: a quoted field is not closed', 3, undefined],
    ['dcf,rw\n-1,110\n', 'line 2, column "dcf": expected a Drought Code, 0 or more, got "-1"', 2, 'dcf'],
    ['dcf,rw\n300,1e999\n', 'line 2, column "rw": expected a winter precipitation in mm, 0 or more, got "1e999"', 2, 'rw'],
    ['dcf,RW\n300,\n', 'line 2, column "RW": expected a winter precipitation in mm, 0 or more, got ""', 2, 'RW'],
    ['dcf,rw,a\n300,110,0\n', 'line 2, column "a": expected a carry-over fraction above 0 and at most 1, got "0"', 2, 'a'],
    ['dcf,rw,b\n300,110,0x1\n', 'line 2, column "b": expected a wetting efficiency from 0 to 1, got "0x1"', 2, 'b'],
  ])('refuses %j with the line and column', (input, message, line, column) => {
    expectInputError(input, message, line, column);
  });
});
