import type { FramingLang } from './languages';
import { CA } from './templates-ca';
import { EN } from './templates-en';
import { ES, type LanguageTemplates } from './templates-es';
import { EU } from './templates-eu';
import { GL } from './templates-gl';

/** Languages with written templates. A language accepted in `lang` but missing here answers in Spanish. */
export type TemplatesTable = { es: LanguageTemplates } & Partial<Record<FramingLang, LanguageTemplates>>;
export const TEMPLATES: TemplatesTable = { es: ES, ca: CA, gl: GL, eu: EU, en: EN };

/** The language a request is answered in and its templates: the one asked for, or es when it has none. */
export function templatesFor(requested: FramingLang, table: TemplatesTable = TEMPLATES): { lang: FramingLang; t: LanguageTemplates } {
  const own = table[requested];
  if (own) return { lang: requested, t: own };
  return { lang: 'es', t: table.es };
}
