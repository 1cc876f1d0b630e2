import { DANGER_CLASS_CODES } from '../decision-support/danger-classes';
import { BAND_FILLS, FWI_BAR, yAxisOf } from './report-chart';

/** WCAG relative luminance of #rrggbb: what a greyscale print keeps of a colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('the report chart', () => {
  it('shades the class bands lighter to darker, each at least 0.05 of luminance apart, so they stay distinct in greyscale, and the bars darker than all', () => {
    const shades = DANGER_CLASS_CODES.map((code) => luminance(BAND_FILLS[code]));
    for (let i = 1; i < shades.length; i++) expect(shades[i - 1]! - shades[i]!).toBeGreaterThanOrEqual(0.05);
    expect(shades[shades.length - 1]! - luminance(FWI_BAR)).toBeGreaterThanOrEqual(0.15);
  });

  it('runs the y axis from 0 to a round value above the highest value drawn', () => {
    expect(yAxisOf(60)).toEqual({ max: 70, step: 10 });
    expect(yAxisOf(16)).toEqual({ max: 20, step: 5 });
    expect(yAxisOf(0)).toEqual({ max: 10, step: 5 });
    expect(yAxisOf(38)).toEqual({ max: 40, step: 10 });
    expect(yAxisOf(140)).toEqual({ max: 160, step: 20 });
  });
});
