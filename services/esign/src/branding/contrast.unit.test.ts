import { accessibleAccent, contrastRatio } from './contrast';

describe('accent contrast (WCAG 2.x)', () => {
  it('computes the reference ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // #767676 on white is the classic 4.54:1
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('keeps a colour that already reaches 4.5:1 with white, and darkens one that does not to the first shade that does', () => {
    expect(accessibleAccent('#0b5394')).toBe('#0b5394');
    for (const light of ['#ffff00', '#7fdbff', '#ff851b', '#ffffff', '#2ecc40']) {
      const used = accessibleAccent(light);
      expect(contrastRatio(used, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(used, '#ffffff')).toBeLessThan(5.2);
    }
    expect(accessibleAccent('#FFFF00')).toBe(accessibleAccent('#ffff00'));
  });
});
