import { basqueEnding, basqueSuffix, DAY_FORMATS } from './day-format';
import { FRAMING_LANGS } from './languages';

describe('the day written in each framing language', () => {
  it('writes 14 July 2025 as each language does', () => {
    expect(FRAMING_LANGS.map((lang) => DAY_FORMATS[lang].day('2025-07-14'))).toEqual([
      '14 de julio de 2025',
      '14 de juliol de 2025',
      '14 de xullo de 2025',
      '2025eko uztailaren 14a',
      '14 July 2025',
    ]);
  });

  it('gives each language "on that day" and "from that day"', () => {
    expect(FRAMING_LANGS.map((lang) => [DAY_FORMATS[lang].on('2025-07-20'), DAY_FORMATS[lang].of('2023-07-25')])).toEqual([
      ['el 20 de julio de 2025', 'del 25 de julio de 2023'],
      ['el 20 de juliol de 2025', 'del 25 de juliol de 2023'],
      ['o 20 de xullo de 2025', 'do 25 de xullo de 2023'],
      ['2025eko uztailaren 20an', '2023ko uztailaren 25ekoa'],
      ['on 20 July 2025', 'from 25 July 2023'],
    ]);
  });

  it('names twelve different months in every language, the first day of each month written out', () => {
    for (const lang of FRAMING_LANGS) {
      const days = Array.from({ length: 12 }, (_, m) => DAY_FORMATS[lang].day(`2025-${String(m + 1).padStart(2, '0')}-02`));
      expect(new Set(days).size).toBe(12);
      for (const d of days) expect(d).not.toMatch(/undefined/);
    }
  });

  describe('Catalan elision', () => {
    it('elides "de" before the months that start with a vowel: abril, agost, octubre', () => {
      expect(['2025-04-14', '2025-08-14', '2025-10-14'].map(DAY_FORMATS.ca.day)).toEqual(["14 d'abril de 2025", "14 d'agost de 2025", "14 d'octubre de 2025"]);
      expect(['2025-01-14', '2025-03-14', '2025-09-14', '2025-12-14'].map(DAY_FORMATS.ca.day)).toEqual([
        '14 de gener de 2025',
        '14 de març de 2025',
        '14 de setembre de 2025',
        '14 de desembre de 2025',
      ]);
    });

    it('elides the article before 1 and 11 ("l\'1", "de l\'11") and not before other days', () => {
      expect(DAY_FORMATS.ca.on('2025-04-01')).toBe("l'1 d'abril de 2025");
      expect(DAY_FORMATS.ca.of('2025-09-11')).toBe("de l'11 de setembre de 2025");
      expect(DAY_FORMATS.ca.on('2025-09-10')).toBe('el 10 de setembre de 2025');
      expect(DAY_FORMATS.ca.of('2025-08-21')).toBe("del 21 d'agost de 2025");
    });
  });

  describe('Basque suffixes, by the last word said', () => {
    it('puts -eko on years said ending in a consonant and -ko on the others', () => {
      expect([2025, 2021, 2015, 2010, 2030, 2050, 1900].map((y) => basqueSuffix(y, 'ko'))).toEqual(['2025eko', '2021eko', '2015eko', '2010eko', '2030eko', '2050eko', '1900eko']);
      expect([2024, 2020, 2016, 2019, 2011, 2031, 2000, 2040].map((y) => basqueSuffix(y, 'ko'))).toEqual(['2024ko', '2020ko', '2016ko', '2019ko', '2011ko', '2031ko', '2000ko', '2040ko']);
    });

    it('writes the day "on" with -ean, -an or, after hamaika, -n', () => {
      expect([1, 5, 10, 15, 21, 25, 30].map((d) => basqueSuffix(d, 'n'))).toEqual(['1ean', '5ean', '10ean', '15ean', '21ean', '25ean', '30ean']);
      expect([2, 3, 14, 20, 29].map((d) => basqueSuffix(d, 'n'))).toEqual(['2an', '3an', '14an', '20an', '29an']);
      expect([11, 31].map((d) => basqueSuffix(d, 'n'))).toEqual(['11n', '31n']);
    });

    it('adds the article -a except after hamaika, which ends in a already', () => {
      expect([1, 14, 25].map((d) => basqueSuffix(d, 'a'))).toEqual(['1a', '14a', '25a']);
      expect(basqueSuffix(11, 'a')).toBe('11');
    });

    it('writes whole dates with the year in -ko and the day declined', () => {
      expect(DAY_FORMATS.eu.day('2031-12-11')).toBe('2031ko abenduaren 11');
      expect(DAY_FORMATS.eu.on('2025-04-01')).toBe('2025eko apirilaren 1ean');
      expect(DAY_FORMATS.eu.on('2024-08-31')).toBe('2024ko abuztuaren 31n');
      expect(DAY_FORMATS.eu.of('2024-04-11')).toBe('2024ko apirilaren 11koa');
      expect(DAY_FORMATS.eu.of('2030-01-10')).toBe('2030eko urtarrilaren 10ekoa');
    });

    it('refuses what is not a whole number from 1', () => {
      expect(() => basqueEnding(0)).toThrow(RangeError);
      expect(() => basqueEnding(2.5)).toThrow(RangeError);
    });
  });
});
