import { eachDay, monthOf } from '../calendar';
import { CodeCarrier, initialState, MAX_CARRY_GAP_DAYS } from './carry';
import { overwinterDc } from './overwinter';
import { step, type FwiCodes } from './series';
import { inWinter, seasonYearOf, WINTER_RULES, winterStartOf, type WinterRule } from './winter';

const LAT = 41.65; // Valladolid
const RULE: WinterRule = { stop: '12-01', restart: '03-01', a: 1, b: 0.75 };
const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

interface Weather {
  temp: number;
  rh: number;
  ws: number;
  prec: number;
}

/** Hot dry summers and autumns; winters with `winterRain` mm spread over nine wet days (the 9th, 18th and 27th); a showery spring. */
function weatherOf(iso: string, winterRain: number): Weather {
  const month = monthOf(iso);
  const day = Number(iso.slice(8, 10));
  if (month === 12 || month <= 2) return { temp: 6, rh: 75, ws: 10, prec: day % 9 === 0 ? winterRain / 9 : 0 };
  if (month <= 5) return { temp: 17, rh: 50, ws: 12, prec: day % 6 === 0 ? 6 : 0 };
  return { temp: 31, rh: 24, ws: 14, prec: 0 };
}

/** Runs a carrier over `days`, returning each day's codes. */
function run(rule: WinterRule | null, days: string[], weather: (iso: string) => Weather): (FwiCodes & { date: string })[] {
  const carrier = new CodeCarrier(rule);
  return days.map((date) => {
    carrier.beginDay(dayNumber(date), date);
    const w = weather(date);
    const today = step(carrier.current, w, LAT, monthOf(date));
    carrier.endDay(dayNumber(date), date, today.ffmc, today.dmc, today.dc, w.prec);
    return { date, ffmc: today.ffmc, dmc: today.dmc, dc: today.dc };
  });
}

describe('carrying the codes across winters and gaps', () => {
  const twoYears = eachDay('2024-06-01', '2025-08-31');
  const at = (series: { date: string; dc: number }[], date: string) => series.find((d) => d.date === date)!;

  it('carries a dry winter’s DC into spring and summer, year over year', () => {
    const dry = run(RULE, twoYears, (iso) => weatherOf(iso, 30));
    const fall = at(dry, '2024-11-30');
    const winterRain = eachDay('2024-12-01', '2025-02-28').reduce((sum, iso) => sum + weatherOf(iso, 30).prec, 0);
    expect(winterRain).toBeCloseTo(30, 6);
    const springDc = overwinterDc({ dcf: fall.dc, rw: winterRain, a: 1, b: 0.75 });
    const march1 = step({ ffmc: 85, dmc: 6, dc: springDc }, weatherOf('2025-03-01', 30), LAT, 3);
    expect(at(dry, '2025-03-01').dc).toBeCloseTo(march1.dc, 10);
    // The summer's drought is still there in spring: far above the standard start of 15.
    expect(fall.dc).toBeGreaterThan(400);
    expect(at(dry, '2025-03-01').dc).toBeGreaterThan(300);

    // A wet winter recharges the soil: the spring DC starts at the floor, and the next summer is far less dry.
    const wet = run(RULE, twoYears, (iso) => weatherOf(iso, 400));
    expect(at(wet, '2025-03-01').dc).toBeLessThan(30);
    expect(at(dry, '2025-08-31').dc - at(wet, '2025-08-31').dc).toBeGreaterThan(200);
  });

  it('lets a series without a winter stop simply continue through the winter', () => {
    const days = eachDay('2024-11-25', '2025-03-05');
    const carried = run(null, days, (iso) => weatherOf(iso, 30));
    let codes: FwiCodes = initialState();
    for (const [i, date] of days.entries()) {
      codes = step(codes, weatherOf(date, 30), LAT, monthOf(date));
      expect(carried[i]!.dc).toBeCloseTo(codes.dc, 10);
    }
  });

  it('after a gap of more than 7 days restarts FFMC and DMC but keeps the DC; a shorter gap carries everything', () => {
    const carrier = new CodeCarrier(null, { ...initialState({ ffmc: 92, dmc: 60, dc: 480 }), day: dayNumber('2024-08-01'), iso: '2024-08-01' });
    carrier.beginDay(dayNumber('2024-08-01') + MAX_CARRY_GAP_DAYS + 1, '2024-08-09');
    expect(carrier.current).toMatchObject({ ffmc: 92, dmc: 60, dc: 480 });
    expect(carrier.gapRestarts).toBe(0);
    carrier.endDay(dayNumber('2024-08-09'), '2024-08-09', 92, 60, 480, 0);
    carrier.beginDay(dayNumber('2024-08-18'), '2024-08-18');
    expect(carrier.current).toMatchObject({ ffmc: 85, dmc: 6, dc: 480 });
    expect(carrier.gapRestarts).toBe(1);
  });

  it('overwinters from the last DC before a gap that spans the whole winter, with no winter rain counted', () => {
    const carrier = new CodeCarrier({ ...RULE, a: 0.75 }, { ...initialState({ dc: 350 }), day: dayNumber('2024-10-31'), iso: '2024-10-31' });
    carrier.beginDay(dayNumber('2025-03-10'), '2025-03-10');
    expect(carrier.current.dc).toBeCloseTo(overwinterDc({ dcf: 350, rw: 0, a: 0.75, b: 0.75 }), 10);
    expect(carrier.springStarts).toBe(1);
    expect(carrier.gapRestarts).toBe(0);
  });
});

describe('winter rules', () => {
  it('knows the winter across New Year, its season year and its first day', () => {
    expect(['11-30', '12-01', '01-15', '02-29', '03-01'].map((md) => inWinter(md, RULE))).toEqual([false, true, true, true, false]);
    expect([seasonYearOf('2025-02-28', RULE), seasonYearOf('2025-03-01', RULE), seasonYearOf('2025-12-31', RULE)]).toEqual([2024, 2025, 2025]);
    expect([winterStartOf('2025-01-10', RULE), winterStartOf('2025-03-01', RULE), winterStartOf('2025-12-01', RULE), winterStartOf('2025-03-02', RULE)]).toEqual([
      '2024-12-01',
      '2024-12-01',
      '2025-12-01',
      null,
    ]);
  });

  it('stops the interior for winter and never the coasts nor the islands', () => {
    expect(Object.keys(WINTER_RULES)).toHaveLength(19);
    for (const code of ['02', '07', '08', '13', '15', '17']) expect(WINTER_RULES[code]).toEqual({ stop: '12-01', restart: '03-01', a: 1, b: 0.75 });
    for (const code of ['01', '03', '04', '05', '06', '09', '10', '11', '12', '14', '16', '18', '19']) expect(WINTER_RULES[code]).toBeNull();
  });
});
