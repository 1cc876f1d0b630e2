import { DANGER_CLASS_CODES, DANGER_CLASSES } from '../decision-support/danger-classes';
import { FRAMING_LANGS, formatNumber } from './languages';
import { LEVEL_NAMES } from './level-names';
import { TEMPLATES, templatesFor } from './templates';
import { ES, type LanguageTemplates } from './templates-es';

/** Every template string of a language with its path ("callToAction.prensa.act"). */
function leaves(t: LanguageTemplates): [string, string][] {
  const out: [string, string][] = [];
  const walk = (v: unknown, path: string) => {
    if (typeof v === 'string') out.push([path, v]);
    else for (const [k, c] of Object.entries(v as object)) walk(c, path ? `${path}.${k}` : k);
  };
  walk(t, '');
  return out;
}
const slots = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('framing templates per language', () => {
  it.each(FRAMING_LANGS)('%s has every template of the Spanish ones, each with the same facts (slots)', (lang) => {
    const t = TEMPLATES[lang]!;
    const own = new Map(leaves(t));
    for (const [path, es] of leaves(ES)) {
      expect([path, typeof own.get(path)]).toEqual([path, 'string']);
      expect([path, slots(own.get(path)!)]).toEqual([path, slots(es)]);
      expect([path, own.get(path)!.trim().length > 0]).toEqual([path, true]);
    }
    expect(own.size).toBe(leaves(ES).length);
  });

  it('gives every call to action of citizens the emergency number in every language', () => {
    for (const lang of FRAMING_LANGS) for (const tone of ['calm', 'watch', 'act'] as const) expect(TEMPLATES[lang]!.callToAction.ciudadania[tone]).toContain('{telefono}');
  });

  it('names every danger class in every language, es as m3 names it', () => {
    for (const lang of FRAMING_LANGS) expect(Object.keys(LEVEL_NAMES[lang]).sort()).toEqual([...DANGER_CLASS_CODES].sort());
    for (const row of DANGER_CLASSES) expect(LEVEL_NAMES.es[row.code]).toBe(row.nameEs);
  });

  it('answers each language in itself, and a language without templates in Spanish', () => {
    for (const lang of FRAMING_LANGS) expect(templatesFor(lang).lang).toBe(lang);
    expect(templatesFor('eu', { es: ES })).toEqual({ lang: 'es', t: ES });
  });

  it('writes a decimal comma in es, ca, gl and eu and a decimal point in en', () => {
    expect(FRAMING_LANGS.map((lang) => formatNumber(40.4, lang))).toEqual(['40,4', '40,4', '40,4', '40,4', '40.4']);
    expect(formatNumber(2025, 'en')).toBe('2025');
    expect(formatNumber(80, 'eu')).toBe('80');
  });
});
