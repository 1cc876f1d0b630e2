import { sharplesFmi } from './fuel-moisture';

describe('Sharples fuel moisture index', () => {
  it('is 10 − 0.25·(T − RH)', () => {
    expect(sharplesFmi(36.2, 21)).toBe(6.2);
    expect(sharplesFmi(20, 20)).toBe(10);
    expect(sharplesFmi(8, 92)).toBe(31);
  });

  it('falls as the air gets hotter or drier', () => {
    expect(sharplesFmi(35, 30)).toBeLessThan(sharplesFmi(25, 30));
    expect(sharplesFmi(30, 15)).toBeLessThan(sharplesFmi(30, 45));
  });

  it('keeps three decimals without floating-point noise', () => {
    expect(sharplesFmi(30.1, 17)).toBe(6.725);
    expect(sharplesFmi(0.3, 0)).toBe(9.925);
  });
});
