/**
 * Noon inputs from AEMET's municipal forecasts.
 *
 * Daily (`/api/prediccion/especifica/municipio/diaria/{INE}`): `[{elaborado, nombre,
 * prediccion: {dia: [...]}, id}]`, days D+0…D+6, each `{fecha: "YYYY-MM-DDT00:00:00",
 * temperatura: {maxima, minima, dato: [{value, hora}]}, humedadRelativa: {maxima, minima,
 * dato: [...]}, viento: [{direccion, velocidad, periodo}], probPrecipitacion: [{value,
 * periodo}]}`; hours and periods are official local time; wind in km/h; `dato` is empty
 * after the first days, and the periods get coarser (00-24, 00-12, 12-24).
 * Hourly (`…/municipio/horaria/{INE}`): `prediccion.dia[].precipitacion[{value, periodo: "HH"}]`,
 * values as strings, `"Ip"` (inapreciable) a trace, for about 48 hours.
 *
 * Rules (FORECAST_RULES in the README):
 *  - temperature: the `dato` at hora 12; without it, maxima − 0.25 · (maxima − minima);
 *  - humidity: the `dato` at hora 12; without it, minima + 0.25 · (maxima − minima);
 *  - wind: the `velocidad` of period 12-18, else 12-24, else 00-24;
 *  - precipitation over the 24 h to noon: the hourly amounts when the hourly forecast
 *    covers all 24 hours ("Ip" counts 0); otherwise from the highest probability p of the
 *    periods inside that span (the day before's from 12 h, the day's to 12 h; else the
 *    day's 00-24): p < 30 %: 0 mm; 30–59 %: 1 mm (wets fine fuels only); ≥ 60 %: 5 mm
 *    (wets the duff and the deep layer too, past the DC's 2.8 mm threshold);
 *  - a day missing a temperature, humidity, wind or precipitation by these rules gives no inputs.
 */

export interface ForecastNoon {
  date: string;
  temp: number;
  rh: number;
  ws: number;
  prec: number;
  /** Where the precipitation came from. */
  precFrom: 'hourly' | 'probability';
}

interface Dato {
  value?: unknown;
  hora?: unknown;
}
interface Periodic {
  value?: unknown;
  velocidad?: unknown;
  periodo?: unknown;
}
interface DailyDay {
  fecha?: unknown;
  temperatura?: { maxima?: unknown; minima?: unknown; dato?: Dato[] };
  humedadRelativa?: { maxima?: unknown; minima?: unknown; dato?: Dato[] };
  viento?: Periodic[];
  probPrecipitacion?: Periodic[];
}

const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};
const dayOf = (fecha: unknown) => (typeof fecha === 'string' && /^\d{4}-\d{2}-\d{2}/.test(fecha) ? fecha.slice(0, 10) : null);

export function forecastDays(data: unknown): { issuedAt: string | null; days: DailyDay[] } {
  const first = Array.isArray(data) ? (data[0] as { elaborado?: unknown; prediccion?: { dia?: unknown } }) : null;
  const days = first?.prediccion?.dia;
  if (!Array.isArray(days)) throw new Error('the AEMET daily forecast has no prediccion.dia');
  return { issuedAt: typeof first!.elaborado === 'string' ? first!.elaborado : null, days: days as DailyDay[] };
}

function atNoonOr(block: DailyDay['temperatura'], fallback: (max: number, min: number) => number): number | null {
  const noon = block?.dato?.find((d) => num(d.hora) === 12);
  const value = num(noon?.value);
  if (value !== null) return value;
  const [max, min] = [num(block?.maxima), num(block?.minima)];
  return max !== null && min !== null ? fallback(max, min) : null;
}

function periodValue(list: Periodic[] | undefined, periods: string[], key: 'value' | 'velocidad'): number | null {
  for (const p of periods) {
    const value = num(list?.find((x) => x.periodo === p)?.[key]);
    if (value !== null) return value;
  }
  return null;
}

/** mm from a probability of precipitation (%), where no amount is forecast. */
export function amountFromProbability(p: number): number {
  return p < 30 ? 0 : p < 60 ? 1 : 5;
}

/** Hourly amounts by date and official local hour (1–24, the hour ending then). */
export function hourlyPrecipitation(data: unknown): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  const first = Array.isArray(data) ? (data[0] as { prediccion?: { dia?: unknown } }) : null;
  const days = first?.prediccion?.dia;
  if (!Array.isArray(days)) return out;
  for (const day of days as { fecha?: unknown; precipitacion?: Periodic[] }[]) {
    const date = dayOf(day.fecha);
    if (!date) continue;
    const hours = new Map<number, number>();
    for (const p of day.precipitacion ?? []) {
      const hour = num(p.periodo);
      const value = p.value === 'Ip' ? 0 : num(p.value);
      if (hour !== null && hour >= 0 && hour <= 24 && value !== null && value >= 0) hours.set(hour === 0 ? 24 : hour, value);
    }
    out.set(date, hours);
  }
  return out;
}

const previousDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * The official local hour of noon local standard time: 12 plus the summer-time shift
 * (13 on the peninsula from the last Sunday of March to the last of October).
 */
export function localNoonHour(date: string, canary: boolean): number {
  const zone = canary ? 'Atlantic/Canary' : 'Europe/Madrid';
  const standard = canary ? 0 : 1;
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(`${date}T12:00:00Z`));
  const localHour = Number(parts.find((p) => p.type === 'hour')!.value);
  return 12 + (localHour - 12 - standard);
}

/** The 24 h to noon from the hourly forecast, or null when it does not cover all of them. */
function hourlySum(hourly: Map<string, Map<number, number>>, date: string, noonHour: number): number | null {
  const today = hourly.get(date);
  const before = hourly.get(previousDay(date));
  let sum = 0;
  for (let h = noonHour + 1; h <= 24; h++) {
    const v = before?.get(h);
    if (v === undefined) return null;
    sum += v;
  }
  for (let h = 1; h <= noonHour; h++) {
    const v = today?.get(h);
    if (v === undefined) return null;
    sum += v;
  }
  return Math.round(sum * 10) / 10;
}

/** Each forecast day's noon inputs, in date order; a day the rules cannot fill is left out. */
export function forecastNoons(daily: unknown, hourly: unknown, canary: boolean): { issuedAt: string | null; noons: ForecastNoon[] } {
  const { issuedAt, days } = forecastDays(daily);
  const byDate = new Map(days.map((d) => [dayOf(d.fecha), d] as const));
  const hours = hourlyPrecipitation(hourly);
  const noons: ForecastNoon[] = [];
  for (const day of days) {
    const date = dayOf(day.fecha);
    if (!date) continue;
    const temp = atNoonOr(day.temperatura, (max, min) => max - 0.25 * (max - min));
    const rh = atNoonOr(day.humedadRelativa, (max, min) => min + 0.25 * (max - min));
    const ws = periodValue(day.viento, ['12-18', '12-24', '00-24'], 'velocidad');
    if (temp === null || rh === null || ws === null) continue;
    const fromHours = hourlySum(hours, date, localNoonHour(date, canary));
    let prec: number;
    if (fromHours !== null) prec = fromHours;
    else {
      const before = byDate.get(previousDay(date));
      const probabilities = [
        periodValue(before?.probPrecipitacion, ['12-24'], 'value'),
        periodValue(before?.probPrecipitacion, ['12-18'], 'value'),
        periodValue(before?.probPrecipitacion, ['18-24'], 'value'),
        periodValue(day.probPrecipitacion, ['00-12'], 'value'),
        periodValue(day.probPrecipitacion, ['00-06'], 'value'),
        periodValue(day.probPrecipitacion, ['06-12'], 'value'),
      ].filter((p): p is number => p !== null);
      const p = probabilities.length > 0 ? Math.max(...probabilities) : periodValue(day.probPrecipitacion, ['00-24'], 'value');
      if (p === null) continue;
      prec = amountFromProbability(p);
    }
    noons.push({ date, temp, rh: Math.min(100, Math.max(0, rh)), ws, prec, precFrom: fromHours !== null ? 'hourly' : 'probability' });
  }
  return { issuedAt, noons };
}
