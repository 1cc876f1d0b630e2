/**
 * How the moisture codes carry from one day of a series to the next across gaps and
 * winters. Before each day:
 *  1. spring: when a restart day of the community's winter rule (winter.ts) has been
 *     passed since the previous day, the codes start again from FFMC 85, DMC 6 and the
 *     overwintered DC (overwinter.ts) of the fall DC (the DC carried into the winter's
 *     first day, or, when no day of the winter was seen, the last DC before the gap)
 *     and the precipitation of the winter's days that were seen;
 *  2. otherwise, after a gap of more than MAX_CARRY_GAP_DAYS missing days, FFMC and DMC
 *     restart from 85 and 6, which they reach again within days to weeks, and the DC
 *     carries over unchanged: with no weather for the gap neither drying nor wetting is
 *     known, and resetting it to 15 would lose a drought that lasts months;
 *  3. on the first day of a winter, the DC carried into it is kept as the fall DC, and
 *     from then on each day's precipitation adds to the winter's.
 * A gap of up to MAX_CARRY_GAP_DAYS missing days carries everything as if the days
 * were consecutive (cffdrs's behaviour).
 */
import { overwinterDc } from './overwinter';
import { DEFAULT_START_CODES, type FwiCodes } from './series';
import { inWinter, monthDayOf, seasonYearOf, type WinterRule } from './winter';

export const MAX_CARRY_GAP_DAYS = 7;

/** Everything a series carries from its last day: the codes and the open winter, if any. */
export interface CarriedState extends FwiCodes {
  /** Day number (any consecutive count of days) and ISO day of the last day seen; null before the first. */
  day: number | null;
  iso: string | null;
  /** The fall DC of the open winter, or null outside one. */
  fallDc: number | null;
  /** Precipitation (mm) of the open winter's days so far. */
  winterRain: number;
}

export function initialState(start: Partial<FwiCodes> = {}): CarriedState {
  return {
    ffmc: start.ffmc ?? DEFAULT_START_CODES.ffmc,
    dmc: start.dmc ?? DEFAULT_START_CODES.dmc,
    dc: start.dc ?? DEFAULT_START_CODES.dc,
    day: null,
    iso: null,
    fallDc: null,
    winterRain: 0,
  };
}

/**
 * One series' carried state: `beginDay` before computing a day, then compute it from
 * `current`'s codes, then `endDay` with its outcome. No object is made per day: the
 * ingestion runs it over millions of days.
 */
export class CodeCarrier {
  /** Times FFMC and DMC restarted after a gap. */
  gapRestarts = 0;
  /** Times the codes started again in spring from an overwintered DC. */
  springStarts = 0;
  readonly current: CarriedState;
  /** `-MM-DD` of the rule's restart and stop days: between consecutive days, the only checks needed. */
  private readonly restartSuffix: string;
  private readonly stopSuffix: string;

  constructor(
    private readonly rule: WinterRule | null,
    state: CarriedState = initialState(),
  ) {
    this.current = { ...state };
    this.restartSuffix = rule ? `-${rule.restart}` : '';
    this.stopSuffix = rule ? `-${rule.stop}` : '';
  }

  /** Applies the spring and gap rules for day `day` (ISO `iso`): `current` then holds the codes to compute it from. */
  beginDay(day: number, iso: string): void {
    const s = this.current;
    const rule = this.rule;
    const consecutive = s.day !== null && day - s.day === 1;
    if (s.day !== null && s.iso !== null) {
      // From one day to the next a restart day is passed only by reaching it.
      const springPassed = rule !== null && (consecutive ? iso.endsWith(this.restartSuffix) : seasonYearOf(iso, rule) > seasonYearOf(s.iso, rule));
      if (springPassed) {
        s.dc = overwinterDc({ dcf: s.fallDc ?? s.dc, rw: s.winterRain, a: rule.a, b: rule.b });
        s.ffmc = DEFAULT_START_CODES.ffmc;
        s.dmc = DEFAULT_START_CODES.dmc;
        s.fallDc = null;
        s.winterRain = 0;
        this.springStarts++;
      } else if (day - s.day > MAX_CARRY_GAP_DAYS + 1) {
        s.ffmc = DEFAULT_START_CODES.ffmc;
        s.dmc = DEFAULT_START_CODES.dmc;
        this.gapRestarts++;
      }
    }
    // Likewise a winter opens on its stop day, or inside it after a gap or at a series' start.
    if (rule && s.fallDc === null && (consecutive ? iso.endsWith(this.stopSuffix) : inWinter(monthDayOf(iso), rule))) {
      s.fallDc = s.dc;
      s.winterRain = 0;
    }
  }

  /** Records day `day`'s codes and precipitation (mm). */
  endDay(day: number, iso: string, ffmc: number, dmc: number, dc: number, prec: number): void {
    const s = this.current;
    s.ffmc = ffmc;
    s.dmc = dmc;
    s.dc = dc;
    s.day = day;
    s.iso = iso;
    if (s.fallDc !== null) s.winterRain += prec;
  }

  /** A copy of the state, to continue the series elsewhere (the next synthetic year). */
  state(): CarriedState {
    return { ...this.current };
  }
}
