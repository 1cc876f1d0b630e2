/**
 * The name of each EFFIS danger class as each framing language writes it after
 * "level" in a text. es is m3's `nameEs` (AEMET's wording, with "muy bajo" for the
 * sixth EFFIS class); ca as Meteocat and the Generalitat's "perill d'incendi forestal"
 * notices name the levels; gl as the Xunta's "risco de incendio" (IRDI) levels; eu with
 * the article, as Euskalmet and EITB write "sute-arrisku oso handia" or "muturrekoa";
 * en EFFIS's own English names.
 */
import type { DangerClass } from '../decision-support/danger-classes';
import type { FramingLang } from './languages';

export const LEVEL_NAMES: Record<FramingLang, Record<DangerClass, string>> = {
  es: { very_low: 'muy bajo', low: 'bajo', moderate: 'moderado', high: 'alto', very_high: 'muy alto', extreme: 'extremo' },
  ca: { very_low: 'molt baix', low: 'baix', moderate: 'moderat', high: 'alt', very_high: 'molt alt', extreme: 'extrem' },
  gl: { very_low: 'moi baixo', low: 'baixo', moderate: 'moderado', high: 'alto', very_high: 'moi alto', extreme: 'extremo' },
  eu: { very_low: 'oso txikia', low: 'txikia', moderate: 'ertaina', high: 'handia', very_high: 'oso handia', extreme: 'muturrekoa' },
  en: { very_low: 'very low', low: 'low', moderate: 'moderate', high: 'high', very_high: 'very high', extreme: 'extreme' },
};
