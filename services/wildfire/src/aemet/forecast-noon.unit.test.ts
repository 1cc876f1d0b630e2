import { amountFromProbability, forecastNoons, localNoonHour } from './forecast-noon';
import { fixture } from './__tests__/fake-aemet-server';

describe('noon inputs from AEMET’s municipal forecast', () => {
  const { issuedAt, noons } = forecastNoons(fixture('prediccion-diaria.json'), fixture('prediccion-horaria.json'), false);
  const on = (date: string) => noons.find((n) => n.date === date);

  it('reads the issue time and one day per forecast day it can fill', () => {
    expect(issuedAt).toBe('2025-07-16T14:12:40');
    expect(noons.map((n) => n.date)).toEqual(['2025-07-16', '2025-07-17', '2025-07-18', '2025-07-19', '2025-07-21', '2025-07-22']);
  });

  it('takes the 12 h values and the 12-18 wind while the forecast has them', () => {
    expect(on('2025-07-16')).toEqual({ date: '2025-07-16', temp: 33, rh: 22, ws: 15, prec: 0, precFrom: 'probability' });
  });

  it('sums the hourly amounts of the 24 h to noon (13 h summer time) when the hourly forecast covers them, "Ip" as 0', () => {
    // 16th 14–24 h: Ip at 20 h, 0.4 mm at 21 h; 17th 1–13 h: 1.2 mm at 3 h. The 2.0 mm at 20 h on the 17th is the 18th's.
    expect(on('2025-07-17')).toEqual({ date: '2025-07-17', temp: 35, rh: 18, ws: 20, prec: 1.6, precFrom: 'hourly' });
  });

  it('falls back to the 12-24 wind, and to the probability rule when an hour of the span is not forecast', () => {
    // The hourly forecast stops at 12 h on the 18th; probabilities 10 % (17th 12-24) and 20 % (18th 00-12): 0 mm.
    expect(on('2025-07-18')).toEqual({ date: '2025-07-18', temp: 36, rh: 15, ws: 25, prec: 0, precFrom: 'probability' });
  });

  it('estimates noon from the day’s extremes once the hourly values end, and turns 70 % into 5 mm', () => {
    // 38 − 0.25 × 16 = 34 °C; 12 + 0.25 × 28 = 19 %; max(40 % on the 18th 12-24, 70 % on the 19th 00-12) = 70 %.
    expect(on('2025-07-19')).toEqual({ date: '2025-07-19', temp: 34, rh: 19, ws: 10, prec: 5, precFrom: 'probability' });
  });

  it('leaves out a day without humidity, and uses the 00-24 wind and probability when nothing finer exists', () => {
    // 32 − 0.25 × 15 = 28.25 °C; 20 + 0.25 × 30 = 27.5 %.
    expect(on('2025-07-20')).toBeUndefined();
    expect(on('2025-07-21')).toEqual({ date: '2025-07-21', temp: 27, rh: 30, ws: 30, prec: 0, precFrom: 'probability' });
    expect(on('2025-07-22')).toEqual({ date: '2025-07-22', temp: 28.25, rh: 27.5, ws: 12, prec: 0, precFrom: 'probability' });
  });

  it('maps probabilities to amounts: under 30 % none, under 60 % 1 mm, otherwise 5 mm', () => {
    expect([0, 29, 30, 59, 60, 100].map(amountFromProbability)).toEqual([0, 0, 1, 1, 5, 5]);
  });

  it('puts noon local standard time at 13 h in summer and 12 h in winter, in the Canaries too', () => {
    expect([localNoonHour('2025-07-16', false), localNoonHour('2025-01-16', false), localNoonHour('2025-07-16', true), localNoonHour('2025-01-16', true)]).toEqual([13, 12, 13, 12]);
  });

  it('refuses an answer without prediccion.dia', () => {
    expect(() => forecastNoons([{ descripcion: 'x' }], null, false)).toThrow(/prediccion\.dia/);
  });
});
