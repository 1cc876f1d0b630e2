import { DANGER_CLASS_CODES, DANGER_CLASSES, type DangerClass } from '../decision-support/danger-classes';
import type { Assessment } from '../decision-support/service';
import { readingOf } from '../readings/reading';
import { framingOf, type ForecastDay } from './compose';
import { FRAMING_LANGS, type FramingLang } from './languages';
import { FRAMING_AUDIENCES, type Audience } from './templates-es';
import { expectNumbersEqualFields, spanishWordsIn } from './__tests__/framing-text';

/** An FWI inside each class (one decimal), so the texts quote a figure of that class. */
const FWI_OF: Record<DangerClass, number> = { very_low: 3.4, low: 8.1, moderate: 15.6, high: 27.3, very_high: 40.4, extreme: 61.2 };

/** A full assessment of 20 July 2025 in Madrid: every fact present, so every sentence is written. */
function assessment(cls: DangerClass, source: 'observed' | 'synthetic' = 'observed'): Assessment {
  const fwi = FWI_OF[cls];
  const zeros = { ffmc: 90, dmc: 50, dc: 400, isi: 10, bui: 80, dsr: 5 };
  return {
    municipioId: '28079',
    municipality: { name: 'Madrid', province: 'Madrid', community: 'Madrid, Comunidad de' },
    date: '2025-07-20',
    reading: readingOf('2025-07-20', { temp: 35, rh: 18, ws: 20, prec: 0 }, { ...zeros, fwi }),
    source,
    provenance: null,
    dangerClass: DANGER_CLASSES.find((row) => row.code === cls)!,
    percentile: 80,
    percentileBasis: { years: 3, days: 5, window_days: 15, first_date: '2023-07-05', last_date: '2025-07-20' } as Assessment['percentileBasis'],
    historyMax: { date: '2023-07-25', fwi: 70.1 },
    lastYear: { date: '2024-07-20', fwi: 33.3 },
    trend: { days: [{ date: '2025-07-18', fwi: 30.2 }, { date: '2025-07-19', fwi: 36 }, { date: '2025-07-20', fwi }], change: 10.2, direction: 'rising', threshold: 3 },
    season: null,
    fireBehaviour: null,
    measures: [],
    actions: [] as unknown as Assessment['actions'],
    sources: [],
  };
}

const FORECAST: ForecastDay[] = [
  { date: '2025-07-23', lead_days: 3, danger_class: 'extreme' },
  { date: '2025-07-21', lead_days: 1, danger_class: 'high' },
  { date: '2025-07-22', lead_days: 2, danger_class: 'very_high' },
];

const every = FRAMING_LANGS.flatMap((lang) => DANGER_CLASS_CODES.map((cls) => [lang, cls] as [FramingLang, DangerClass]));

describe('framing texts per level, audience and language', () => {
  it.each(every)('%s, %s: each audience has its own headline and its own summary', (lang, cls) => {
    const texts = FRAMING_AUDIENCES.map((audience) => framingOf(assessment(cls), audience, lang));
    expect(new Set(texts.map((t) => t.headline)).size).toBe(FRAMING_AUDIENCES.length);
    expect(new Set(texts.map((t) => t.summary)).size).toBe(FRAMING_AUDIENCES.length);
    expect(new Set(texts.map((t) => t.call_to_action)).size).toBe(FRAMING_AUDIENCES.length);
  });

  it.each(every)('%s, %s: every audience’s text is filled, with no slot left, numbers equal to fields and no Spanish outside es', (lang, cls) => {
    for (const audience of FRAMING_AUDIENCES) {
      const framing = framingOf(assessment(cls), audience, lang, FORECAST);
      const texts = [framing.headline, framing.summary, framing.call_to_action, ...framing.key_messages, framing.uncertainty, framing.forecast!.text];
      for (const text of texts) {
        expect({ audience, text, slotLeft: /[{}]/.test(text) }).toEqual({ audience, text, slotLeft: false });
        expect(text.charAt(0)).toBe(text.charAt(0).toUpperCase());
      }
      expectNumbersEqualFields(framing as unknown as Record<string, unknown>);
      if (lang !== 'es') expect({ audience, spanish: spanishWordsIn(framing as unknown as Record<string, unknown>, lang) }).toEqual({ audience, spanish: [] });
    }
  });

  it('gives the press a sourced lead, the council its measures and emergency services behaviour and resources', () => {
    const of = (audience: Audience) => framingOf(assessment('very_high'), audience, 'es');
    expect(of('prensa').headline).toBe('Peligro de incendio muy alto en Madrid, con un índice FWI de 40,4: prohibido el uso del fuego');
    expect(of('prensa').summary).toMatch(/^Según el índice meteorológico de peligro de incendio \(FWI\) del sistema europeo EFFIS, Madrid registra el 20 de julio de 2025 un valor de 40,4, nivel muy alto:/);
    expect(of('ayuntamiento').summary).toContain('El ayuntamiento debe aplicar y difundir la prohibición del fuego');
    expect(of('emergencias').headline).toBe('Madrid, FWI 40,4 (peligro muy alto): máxima disponibilidad de medios');
    expect(of('emergencias').summary).toContain('cabe esperar propagación rápida');
    // The citizens' texts are those of before.
    expect(of('ciudadania').headline).toBe('Peligro de incendio muy alto en Madrid: prohibido el uso del fuego');
  });
});

describe('the forecast section', () => {
  it('writes the coming days nearest first, "tomorrow" and "the day after" by name, in every language', () => {
    const text = (lang: FramingLang) => framingOf(assessment('high'), 'ciudadania', lang, FORECAST).forecast!.text;
    expect(text('es')).toBe('Mañana: alto; pasado mañana: muy alto; el 23 de julio de 2025: extremo.');
    expect(text('ca')).toBe('Demà: alt; demà passat: molt alt; el 23 de juliol de 2025: extrem.');
    expect(text('gl')).toBe('Mañá: alto; pasadomañá: moi alto; o 23 de xullo de 2025: extremo.');
    expect(text('eu')).toBe('Bihar: handia; etzi: oso handia; 2025eko uztailaren 23an: muturrekoa.');
    expect(text('en')).toBe('Tomorrow: high; the day after tomorrow: very high; on 23 July 2025: extreme.');
    expect(framingOf(assessment('high'), 'prensa', 'es', FORECAST).forecast!.days).toEqual([
      { date: '2025-07-21', lead_days: 1, danger_class: 'high' },
      { date: '2025-07-22', lead_days: 2, danger_class: 'very_high' },
      { date: '2025-07-23', lead_days: 3, danger_class: 'extreme' },
    ]);
  });

  it('is absent without forecast days, and ignores days that are not ahead', () => {
    expect('forecast' in framingOf(assessment('high'), 'ciudadania', 'es')).toBe(false);
    expect('forecast' in framingOf(assessment('high'), 'ciudadania', 'es', [{ date: '2025-07-20', lead_days: 0, danger_class: 'low' }])).toBe(false);
  });
});
