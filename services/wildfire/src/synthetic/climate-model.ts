/**
 * Synthetic noon weather for test tokens: a climate by province plus daily noise
 * drawn from a generator keyed by municipality and date.
 *
 * Each province has a climate zone and its capital's latitude and altitude
 * (municipalities/provinces.ts). A zone gives, at its reference latitude and sea
 * level, the annual mean noon temperature and its seasonal swing, noon relative
 * humidity in summer and winter, the daily chance of rain in summer and winter with
 * its mean amount, and the mean noon wind. Temperature falls 0.9 °C per degree of
 * latitude north of the reference and 6.5 °C per km of altitude. The season follows
 * a cosine peaking on day 200 (19 July). So the south and the interior are hotter
 * and drier in summer, the north-west and the Cantabrian coast wetter all year, the
 * Mediterranean coast mild and humid, the Canaries nearly seasonless.
 *
 * Each day: a temperature anomaly that persists (AR(1), 0.7 a day, 2.2 °C noise);
 * rain more likely after a wet day; humidity falling with the anomaly and rising on
 * wet days; each municipality offset a little from its province (temperature,
 * humidity, wind, rain) by a draw keyed by its code. Daily draws are keyed by
 * "code|date", so a day's weather depends only on the municipality, the date and
 * the days before it in the same year.
 */
import type { ClimateZone, Province } from '../municipalities/provinces';
import type { DailyWeather } from '../fwi';
import { hashKey, seededRandom, standardNormal, uniform } from './seeded-random';

export interface ZoneClimate {
  /** Latitude (°N) the temperatures refer to. */
  refLat: number;
  /** Annual mean noon temperature (°C) at refLat and sea level. */
  meanTemp: number;
  /** Half the difference between the July and January noon temperatures (°C). */
  seasonalSwing: number;
  /** Mean noon relative humidity (%) in midsummer and midwinter. */
  rhSummer: number;
  rhWinter: number;
  /** Daily chance of rain in midsummer and midwinter. */
  rainChanceSummer: number;
  rainChanceWinter: number;
  /** Mean amount (mm) of a wet day. */
  rainMean: number;
  /** Mean noon wind at 10 m (km/h). */
  windMean: number;
}

export const ZONE_CLIMATES: Readonly<Record<ClimateZone, ZoneClimate>> = {
  oceanic: { refLat: 43, meanTemp: 17.5, seasonalSwing: 5, rhSummer: 64, rhWinter: 76, rainChanceSummer: 0.24, rainChanceWinter: 0.5, rainMean: 9, windMean: 16 },
  oceanic_inland: { refLat: 42.5, meanTemp: 20.5, seasonalSwing: 8, rhSummer: 45, rhWinter: 78, rainChanceSummer: 0.12, rainChanceWinter: 0.45, rainMean: 8, windMean: 10 },
  continental: { refLat: 41, meanTemp: 23.5, seasonalSwing: 10.5, rhSummer: 30, rhWinter: 70, rainChanceSummer: 0.08, rainChanceWinter: 0.25, rainMean: 6, windMean: 12 },
  southern_inland: { refLat: 37.5, meanTemp: 25, seasonalSwing: 10.5, rhSummer: 26, rhWinter: 62, rainChanceSummer: 0.02, rainChanceWinter: 0.22, rainMean: 9, windMean: 11 },
  mediterranean: { refLat: 40, meanTemp: 22, seasonalSwing: 7, rhSummer: 55, rhWinter: 62, rainChanceSummer: 0.05, rainChanceWinter: 0.17, rainMean: 10, windMean: 14 },
  subtropical: { refLat: 28.3, meanTemp: 22.5, seasonalSwing: 3, rhSummer: 66, rhWinter: 70, rainChanceSummer: 0.02, rainChanceWinter: 0.16, rainMean: 7, windMean: 15 },
};

const PEAK_DAY = 200;
const LATITUDE_GRADIENT = 0.9;
const LAPSE_RATE = 0.0065;
const ANOMALY_PERSISTENCE = 0.7;
const ANOMALY_NOISE = 2.2;

/** 1 at the height of summer, 0 in midwinter. */
export function summerness(dayOfYear: number): number {
  return (1 + Math.cos((2 * Math.PI * (dayOfYear - PEAK_DAY)) / 365.25)) / 2;
}

/** A municipality's lasting departures from its province's climate, keyed by its code. */
function localOffsets(ineCode: string) {
  const random = seededRandom(hashKey(`local|${ineCode}`));
  return {
    temp: uniform(random, -1.5, 1.5),
    rh: uniform(random, -5, 5),
    wind: uniform(random, 0.8, 1.2),
    rain: uniform(random, 0.8, 1.2),
  };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Noon weather of every listed day of one year for one municipality, in order.
 * `days` must be consecutive days of one year starting on 1 January, since each
 * day's anomaly and rain persistence carry over from the day before.
 */
export function yearOfWeather(ineCode: string, province: Province, days: readonly string[]): DailyWeather[] {
  const zone = ZONE_CLIMATES[province.climate];
  const local = localOffsets(ineCode);
  const baseTemp = zone.meanTemp - LATITUDE_GRADIENT * (province.lat - zone.refLat) - LAPSE_RATE * province.altitude + local.temp;
  let anomaly = 0;
  let wetYesterday = false;
  return days.map((date, i) => {
    const random = seededRandom(hashKey(`${ineCode}|${date}`));
    const s = summerness(i + 1);
    anomaly = ANOMALY_PERSISTENCE * anomaly + ANOMALY_NOISE * standardNormal(random);
    const chance = (zone.rainChanceWinter + (zone.rainChanceSummer - zone.rainChanceWinter) * s) * local.rain;
    const wet = random() < (wetYesterday ? Math.min(0.85, chance * 1.6) : chance);
    wetYesterday = wet;
    const prec = wet ? -zone.rainMean * Math.log(1 - random()) : 0;
    const temp = baseTemp + zone.seasonalSwing * (2 * s - 1) + anomaly - (wet ? 2.5 : 0);
    const rhMean = zone.rhWinter + (zone.rhSummer - zone.rhWinter) * s + local.rh;
    const rh = Math.min(100, Math.max(6, rhMean - 1.8 * anomaly + 6 * standardNormal(random) + (wet ? 18 : 0)));
    const ws = zone.windMean * local.wind * uniform(random, 0.4, 1.6);
    return { temp: round1(temp), rh: Math.round(rh), ws: round1(ws), prec: round1(prec) };
  });
}
